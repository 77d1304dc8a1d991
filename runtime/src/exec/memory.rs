//! Bounded memory: the coordinator's budget for a run with
//! [`ExecOptions::memory_limit`](super::ExecOptions::memory_limit), and
//! [`check_memory`], which refuses a plan before it runs when one subtask alone
//! cannot fit.
//!
//! The coordinator counts the bytes of the chunks held in memory anywhere (the
//! live bytes of [`ExecStats`](super::ExecStats)) plus, for every subtask in
//! flight, a reservation: its inputs that must be read back from disk and its
//! outputs. A subtask is dispatched only if that total stays within the limit,
//! after spilling chunks to make room; when nothing is in flight it is dispatched
//! anyway, so the job always progresses and the overshoot is at most one subtask's
//! working set.
//!
//! **Which chunks to spill.** Belady's rule: the one needed furthest in the future.
//! The coordinator knows the order in which pending subtasks will run (priority,
//! then id), so a chunk's next use is the first of its consumers that has not been
//! dispatched yet; results held for the caller are needed only at the very end.
//! Chunks an in-flight subtask reads are never candidates.
//!
//! **Output sizes.** The caller may pass the projected bytes of every chunk
//! ([`ExecOptions::projected_chunk_bytes`](super::ExecOptions::projected_chunk_bytes);
//! the compiler knows every chunk's shape and dtype), which makes admission exact.
//! Otherwise they are learnt, erring on the large side: the largest of the outputs
//! seen for the same label (subtasks of one statement have similar chunks), the
//! subtask's largest input and the largest output seen at all. Before anything is
//! known, only one subtask runs at a time. A learnt estimate can be too small (an
//! output larger than anything seen before), and then the limit may be overshot by
//! the difference once per running subtask.

use super::store::IdMap;
use crate::plan::{ChunkId, Plan, SubtaskId};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The most processes (MPI ranks) with a memory budget each; past it, one budget
/// covers every process.
pub const MAX_PROCESSES: u32 = 64;

/// When a chunk is needed next: `(priority, subtask id)` of its first pending
/// consumer; larger is later.
pub type NextUse = (i64, u32);

/// The next use of a result that no subtask consumes any more.
pub const AT_THE_END: NextUse = (i64::MAX, u32::MAX);

pub struct MemoryBudget {
    limit: u64,
    /// One budget per process of workers (MPI ranks; one in a single process).
    groups: Vec<GroupBudget>,
    /// Per subtask: the bytes reserved while it is in flight, and in which group.
    reservations: Vec<(u64, u32)>,
    /// The caller's projection of every chunk's bytes, by chunk id.
    projected: Option<Arc<[u64]>>,
    largest_output_by_label: IdMap<u32, u64>,
    largest_output: Option<u64>,
}

/// What one process's workers hold against the limit: reservations and the chunks
/// it may spill.
struct GroupBudget {
    reserved: u64,
    /// Chunks that may be spilled, ordered by next use (furthest last).
    candidates: BTreeSet<(NextUse, ChunkId)>,
    /// Per chunk: its key in `candidates`, if it is one.
    candidate_keys: Vec<Option<NextUse>>,
}

impl MemoryBudget {
    /// A budget of `limit` bytes for each of `groups` processes of workers.
    pub fn new(
        limit: u64,
        groups: u32,
        num_subtasks: usize,
        num_chunks: u32,
        projected: Option<Arc<[u64]>>,
    ) -> Self {
        let group = || GroupBudget {
            reserved: 0,
            candidates: BTreeSet::new(),
            candidate_keys: vec![None; num_chunks as usize],
        };
        MemoryBudget {
            limit,
            groups: (0..groups.max(1)).map(|_| group()).collect(),
            reservations: vec![(0, 0); num_subtasks],
            projected,
            largest_output_by_label: IdMap::default(),
            largest_output: None,
        }
    }

    /// Whether `extra` more bytes fit in `group` next to the `live` bytes it holds
    /// and its reservations.
    pub fn fits(&self, group: u32, live: u64, extra: u64) -> bool {
        let reserved = self.groups[group as usize].reserved;
        live.saturating_add(reserved).saturating_add(extra) <= self.limit
    }

    /// Reserves `bytes` in `group` for a subtask in flight.
    pub fn reserve(&mut self, subtask: SubtaskId, group: u32, bytes: u64) {
        self.release(subtask);
        self.reservations[subtask.index()] = (bytes, group);
        self.groups[group as usize].reserved += bytes;
    }

    /// Ends the reservation of a subtask that completed, failed or was given back.
    pub fn release(&mut self, subtask: SubtaskId) {
        let (bytes, group) = std::mem::take(&mut self.reservations[subtask.index()]);
        self.groups[group as usize].reserved -= bytes;
    }

    /// Makes `chunk` a spill candidate of `group` with the given next use, or not
    /// one (`None`).
    pub fn set_candidate(&mut self, group: u32, chunk: ChunkId, next_use: Option<NextUse>) {
        let group = &mut self.groups[group as usize];
        let slot = &mut group.candidate_keys[chunk.index()];
        if *slot == next_use {
            return;
        }
        if let Some(old) = slot.take() {
            group.candidates.remove(&(old, chunk));
        }
        if let Some(key) = next_use {
            group.candidates.insert((key, chunk));
        }
        *slot = next_use;
    }

    /// The candidate of `group` needed furthest in the future.
    pub fn furthest_candidate(&self, group: u32) -> Option<ChunkId> {
        self.groups[group as usize]
            .candidates
            .last()
            .map(|&(_, chunk)| chunk)
    }

    pub fn observe_output(&mut self, label: u32, bytes: u64) {
        let largest = self.largest_output_by_label.entry(label).or_insert(0);
        *largest = (*largest).max(bytes);
        self.largest_output = Some(self.largest_output.unwrap_or(0).max(bytes));
    }

    /// The bytes output `chunk` of a subtask with this label and largest input
    /// will take: projected if the caller said, else estimated.
    pub fn output_bytes(
        &self,
        chunk: ChunkId,
        label: u32,
        largest_input: Option<u64>,
    ) -> Option<u64> {
        match self
            .projected
            .as_ref()
            .and_then(|bytes| bytes.get(chunk.index()))
        {
            Some(&bytes) => Some(bytes),
            None => self.estimate_output(label, largest_input),
        }
    }

    /// The expected size of each output of a subtask with this label and largest
    /// input; `None` when nothing is known yet.
    pub fn estimate_output(&self, label: u32, largest_input: Option<u64>) -> Option<u64> {
        let by_label = self.largest_output_by_label.get(&label).copied();
        [by_label, largest_input, self.largest_output]
            .into_iter()
            .flatten()
            .max()
    }
}

/// Refuses a plan in which one subtask alone needs more than `limit` bytes: its
/// distinct inputs plus its outputs, sized by the caller's `estimate` of each chunk.
/// Returns the first such subtask (in plan order) with its projected bytes, before
/// anything runs. Intermediate values inside a subtask are not counted; the caller's
/// estimate may include them in the outputs.
pub fn check_memory<K>(
    plan: &Plan<K>,
    limit: u64,
    estimate: impl Fn(ChunkId) -> u64,
) -> Result<(), (SubtaskId, u64)> {
    let mut inputs: Vec<ChunkId> = Vec::new();
    for (index, subtask) in plan.subtasks.iter().enumerate() {
        inputs.clear();
        inputs.extend_from_slice(&subtask.inputs);
        inputs.sort_unstable();
        inputs.dedup();
        let chunks = inputs
            .iter()
            .copied()
            .chain(subtask.outputs.iter().map(|&(_, chunk)| chunk));
        let projected = chunks.fold(0u64, |total, chunk| total.saturating_add(estimate(chunk)));
        if projected > limit {
            return Err((SubtaskId(index as u32), projected));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_furthest_candidate_comes_first() {
        let mut budget = MemoryBudget::new(100, 1, 4, 4, None);
        budget.set_candidate(0, ChunkId(0), Some((0, 3)));
        budget.set_candidate(0, ChunkId(1), Some((1, 0)));
        budget.set_candidate(0, ChunkId(2), Some(AT_THE_END));
        assert_eq!(budget.furthest_candidate(0), Some(ChunkId(2)));
        budget.set_candidate(0, ChunkId(2), None);
        assert_eq!(budget.furthest_candidate(0), Some(ChunkId(1)));
        budget.set_candidate(0, ChunkId(1), Some((-5, 0)));
        assert_eq!(budget.furthest_candidate(0), Some(ChunkId(0)));
    }

    #[test]
    fn reservations_count_against_the_limit() {
        let mut budget = MemoryBudget::new(100, 1, 2, 0, None);
        assert!(budget.fits(0, 60, 40));
        budget.reserve(SubtaskId(0), 0, 30);
        assert!(!budget.fits(0, 60, 40));
        assert!(budget.fits(0, 60, 10));
        budget.reserve(SubtaskId(0), 0, 10);
        assert!(budget.fits(0, 60, 30));
        budget.release(SubtaskId(0));
        budget.release(SubtaskId(0));
        assert!(budget.fits(0, 60, 40));
    }

    #[test]
    fn each_group_has_the_limit_to_itself() {
        let mut budget = MemoryBudget::new(100, 2, 2, 2, None);
        budget.reserve(SubtaskId(0), 1, 70);
        assert!(budget.fits(0, 60, 40));
        assert!(!budget.fits(1, 0, 40));
        budget.set_candidate(1, ChunkId(0), Some((0, 0)));
        assert_eq!(budget.furthest_candidate(0), None);
        assert_eq!(budget.furthest_candidate(1), Some(ChunkId(0)));
        budget.release(SubtaskId(0));
        assert!(budget.fits(1, 60, 40));
    }

    #[test]
    fn estimates_take_the_largest_figure_known() {
        let mut budget = MemoryBudget::new(100, 1, 0, 0, None);
        assert_eq!(budget.estimate_output(1, None), None);
        assert_eq!(budget.estimate_output(1, Some(8)), Some(8));
        budget.observe_output(2, 40);
        assert_eq!(budget.estimate_output(1, None), Some(40));
        assert_eq!(budget.estimate_output(1, Some(80)), Some(80));
        budget.observe_output(1, 120);
        assert_eq!(budget.estimate_output(1, Some(80)), Some(120));
        assert_eq!(budget.estimate_output(2, None), Some(120));
    }

    #[test]
    fn projections_override_estimates() {
        let projected: Arc<[u64]> = Arc::from(vec![7, 9]);
        let mut budget = MemoryBudget::new(100, 1, 0, 2, Some(projected));
        budget.observe_output(1, 120);
        assert_eq!(budget.output_bytes(ChunkId(1), 1, Some(500)), Some(9));
        // A chunk beyond the projection falls back to the estimate.
        assert_eq!(budget.output_bytes(ChunkId(2), 1, None), Some(120));
    }
}
