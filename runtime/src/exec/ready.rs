//! The coordinator's dispatch policy: the ready queue (priority order, then subtask
//! id, so dispatch is deterministic for a given sequence of completions), the choice
//! of a worker for a subtask without a preferred one, and the size of each worker's
//! queue.
//!
//! The ready queue numbers the subtasks once by (priority, id) — their rank — and
//! keeps each set of ready subtasks as a bitmap over ranks with a summary bitmap per
//! 64 words above it ([`RankSet`]): a push touches one word per level (four levels for
//! 16 M subtasks), the first ready subtask is kept aside, and a pop looks for the
//! next one from where the last was (usually the same word), where a binary heap of
//! hundreds of thousands of ready subtasks touched a cache line per level of a tree
//! twenty deep.

use crate::plan::SubtaskId;
use std::cmp::Reverse;

/// Ready subtasks: one set for those that may run anywhere, one per worker for those
/// pinned to a worker by the plan.
pub struct ReadyQueue {
    /// Per subtask id, its position in (priority, id) order.
    rank: Vec<u32>,
    /// Per rank, the subtask id.
    by_rank: Vec<u32>,
    any: RankSet,
    pinned: Vec<RankSet>,
}

/// Which set the next subtask comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextReady {
    Any,
    Pinned(u32),
}

impl ReadyQueue {
    /// A queue for subtasks of these priorities (indexed by subtask id).
    pub fn new(workers: u32, priorities: &[i64]) -> Self {
        let by_rank = rank_order(priorities);
        let mut rank = vec![0; by_rank.len()];
        for (position, &id) in by_rank.iter().enumerate() {
            rank[id as usize] = position as u32;
        }
        let len = by_rank.len();
        ReadyQueue {
            rank,
            by_rank,
            any: RankSet::new(len),
            pinned: (0..workers).map(|_| RankSet::new(len)).collect(),
        }
    }

    /// `worker` must be below the worker count, `subtask` below the subtask count.
    pub fn push(&mut self, subtask: SubtaskId, worker: Option<u32>) {
        let rank = self.rank[subtask.index()];
        match worker {
            Some(worker) => self.pinned[worker as usize].insert(rank),
            None => self.any.insert(rank),
        }
    }

    /// The first ready subtask in (priority, id) order among the pinned sets of
    /// workers with room and, when `include_any`, the shared set.
    #[cfg(test)]
    pub fn peek_next(
        &self,
        has_room: impl Fn(u32) -> bool,
        include_any: bool,
    ) -> Option<NextReady> {
        let mut best: Option<(u32, NextReady)> = None;
        let mut consider = |rank: Option<u32>, from: NextReady| {
            if let Some(rank) = rank {
                if best.is_none_or(|(best_rank, _)| rank < best_rank) {
                    best = Some((rank, from));
                }
            }
        };
        if include_any {
            consider(self.any.first(), NextReady::Any);
        }
        for (worker, set) in self.pinned.iter().enumerate() {
            let worker = worker as u32;
            if has_room(worker) {
                consider(set.first(), NextReady::Pinned(worker));
            }
        }
        best.map(|(_, from)| from)
    }

    /// Empties a worker's pinned set (the worker is gone), in (priority, id) order.
    pub fn drain_pinned(&mut self, worker: u32) -> Vec<SubtaskId> {
        let set = &mut self.pinned[worker as usize];
        let mut drained = Vec::new();
        while let Some(rank) = set.first() {
            set.remove(rank);
            drained.push(SubtaskId(self.by_rank[rank as usize]));
        }
        drained
    }

    /// Takes the first ready subtask in (priority, id) order among the pinned sets
    /// of workers with room and, when `include_any`, the shared set: [`Self::peek_next`]
    /// and [`Self::pop`] in one walk of the bitmaps.
    pub fn pop_next(
        &mut self,
        has_room: impl Fn(u32) -> bool,
        include_any: bool,
    ) -> Option<(SubtaskId, NextReady)> {
        let mut best: Option<(u32, NextReady)> = None;
        if include_any {
            best = self.any.first().map(|rank| (rank, NextReady::Any));
        }
        for (worker, set) in self.pinned.iter().enumerate() {
            let worker = worker as u32;
            if set.is_empty() || !has_room(worker) {
                continue;
            }
            if let Some(rank) = set.first() {
                if best.is_none_or(|(best_rank, _)| rank < best_rank) {
                    best = Some((rank, NextReady::Pinned(worker)));
                }
            }
        }
        let (rank, from) = best?;
        match from {
            NextReady::Any => self.any.remove(rank),
            NextReady::Pinned(worker) => self.pinned[worker as usize].remove(rank),
        }
        Some((SubtaskId(self.by_rank[rank as usize]), from))
    }

    #[cfg(test)]
    pub fn pop(&mut self, from: NextReady) -> Option<SubtaskId> {
        let set = match from {
            NextReady::Any => &mut self.any,
            NextReady::Pinned(worker) => &mut self.pinned[worker as usize],
        };
        let rank = set.first()?;
        set.remove(rank);
        Some(SubtaskId(self.by_rank[rank as usize]))
    }
}

/// Subtask ids in (priority, id) order. Linear when the priorities are a permutation
/// of the ids (what the scheduling pass gives), a sort otherwise.
fn rank_order(priorities: &[i64]) -> Vec<u32> {
    let mut by_rank = vec![u32::MAX; priorities.len()];
    let permutation = priorities.iter().enumerate().all(|(id, &priority)| {
        match usize::try_from(priority)
            .ok()
            .and_then(|p| by_rank.get_mut(p))
        {
            Some(slot) if *slot == u32::MAX => {
                *slot = id as u32;
                true
            }
            _ => false,
        }
    });
    if !permutation {
        by_rank = (0..priorities.len() as u32).collect();
        by_rank.sort_unstable_by_key(|&id| (priorities[id as usize], id));
    }
    by_rank
}

/// A set of ranks below a fixed bound: a bitmap, and above it bitmaps saying which
/// words below are not empty, up to a single word. Allocated on first insert, so a
/// worker nothing is pinned to costs nothing. The smallest rank is kept aside, so
/// [`RankSet::first`] reads one field; removing it searches for the next one from
/// where it was (usually in the same word), not from the top.
pub struct RankSet {
    len: usize,
    /// `levels[0]` holds the ranks; bit `i` of level `l + 1` says word `i` of level `l`
    /// is not empty. The last level is one word.
    levels: Vec<Vec<u64>>,
    /// The smallest rank in the set; `NO_RANK` when it is empty.
    min: u32,
}

/// [`RankSet::min`] of an empty set (no rank reaches it: ranks are below the count
/// of subtasks, itself at most `u32::MAX`).
const NO_RANK: u32 = u32::MAX;

impl RankSet {
    pub fn new(len: usize) -> Self {
        RankSet {
            len,
            levels: Vec::new(),
            min: NO_RANK,
        }
    }

    pub fn insert(&mut self, rank: u32) {
        if self.levels.is_empty() {
            let mut words = self.len.div_ceil(64).max(1);
            loop {
                self.levels.push(vec![0; words]);
                if words == 1 {
                    break;
                }
                words = words.div_ceil(64);
            }
        }
        self.min = self.min.min(rank);
        let mut bit = rank as usize;
        for level in &mut self.levels {
            let word = &mut level[bit / 64];
            let was_empty = *word == 0;
            *word |= 1 << (bit % 64);
            if !was_empty {
                break;
            }
            bit /= 64;
        }
    }

    pub fn remove(&mut self, rank: u32) {
        let mut bit = rank as usize;
        for level in &mut self.levels {
            let Some(word) = level.get_mut(bit / 64) else {
                return;
            };
            *word &= !(1 << (bit % 64));
            if *word != 0 {
                break;
            }
            bit /= 64;
        }
        if rank == self.min {
            self.min = self.next_from(rank).unwrap_or(NO_RANK);
        }
    }

    /// The smallest rank in the set at or after `rank`: the rest of `rank`'s word,
    /// else the next non-empty word found one level up (and so on), then down again.
    fn next_from(&self, rank: u32) -> Option<u32> {
        let mut position = rank as usize;
        for (level, words) in self.levels.iter().enumerate() {
            let word_index = position / 64;
            if let Some(&word) = words.get(word_index) {
                let rest = word & (u64::MAX << (position % 64));
                if rest != 0 {
                    let mut index = word_index * 64 + rest.trailing_zeros() as usize;
                    for lower in self.levels[..level].iter().rev() {
                        index = index * 64 + lower[index].trailing_zeros() as usize;
                    }
                    return Some(index as u32);
                }
            }
            position = word_index + 1;
        }
        None
    }

    /// Whether the set was never filled (a worker nothing is pinned to).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// The smallest rank in the set.
    #[inline]
    pub fn first(&self) -> Option<u32> {
        (self.min != NO_RANK).then_some(self.min)
    }
}

/// Picks a worker for a subtask that may run anywhere, or `None` to keep it waiting.
///
/// The worker holding the most input bytes gets it when its queue has room (ties go
/// to the less loaded, then the lower id). When that worker is full, the subtask
/// moves (and its inputs with it) only to a worker that is about to run dry, because
/// moving data costs more than a short wait. Without inputs on any worker, the least
/// loaded worker with room gets it.
pub fn choose_worker(bytes_on: &[u64], load: &[u32], depth: u32) -> Option<u32> {
    let least_loaded = (0..load.len()).min_by_key(|&w| (load[w], w))?;
    let holder = (0..bytes_on.len())
        .filter(|&w| bytes_on[w] > 0)
        .max_by_key(|&w| (bytes_on[w], Reverse(load[w]), Reverse(w)));
    let chosen = match holder {
        Some(holder) if load[holder] < depth => holder,
        Some(_) if load[least_loaded] < (depth / 2).max(1) => least_loaded,
        None if load[least_loaded] < depth => least_loaded,
        _ => return None,
    };
    Some(chosen as u32)
}

/// How many subtasks each worker may have in flight: enough to cover the time the
/// coordinator takes to answer a report, yet small enough that a subtask which
/// becomes ready later with a better priority does not wait behind a long queue.
/// Adapts to the measured time per subtask unless fixed by the caller.
#[derive(Clone, Debug)]
pub struct QueueDepth {
    fixed: Option<u32>,
    mean_subtask_nanos: Option<f64>,
}

impl QueueDepth {
    /// Work a full queue should hold.
    const TARGET_QUEUE_NANOS: f64 = 200_000.0;
    const MIN: u32 = 2;
    const MAX: u32 = 1024;

    pub fn new(fixed: Option<u32>) -> Self {
        QueueDepth {
            fixed: fixed.map(|depth| depth.max(1)),
            mean_subtask_nanos: None,
        }
    }

    /// The depth for subtasks that take `mean_subtask_nanos` each (what a run
    /// settles on once it has measured them), unless `fixed`.
    pub fn for_mean(fixed: Option<u32>, mean_subtask_nanos: f64) -> u32 {
        QueueDepth {
            mean_subtask_nanos: Some(mean_subtask_nanos),
            ..QueueDepth::new(fixed)
        }
        .current()
    }

    pub fn current(&self) -> u32 {
        if let Some(depth) = self.fixed {
            return depth;
        }
        match self.mean_subtask_nanos {
            None => Self::MIN,
            Some(mean) => {
                let depth = Self::TARGET_QUEUE_NANOS / mean.max(1.0);
                depth.clamp(f64::from(Self::MIN), f64::from(Self::MAX)) as u32
            }
        }
    }

    /// How often a worker should report: halfway through its queue.
    pub fn report_every(&self) -> u32 {
        (self.current() / 2).max(1)
    }

    pub fn observe(&mut self, busy_nanos: u64, subtasks: usize) {
        if subtasks == 0 {
            return;
        }
        let sample = busy_nanos as f64 / subtasks as f64;
        self.mean_subtask_nanos = Some(match self.mean_subtask_nanos {
            None => sample,
            Some(mean) => 0.7 * mean + 0.3 * sample,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_queue_orders_by_priority_then_id_across_heaps() {
        let mut priorities = vec![7; 10];
        priorities[5] = 1;
        priorities[3] = 1;
        priorities[9] = 0;
        let mut queue = ReadyQueue::new(2, &priorities);
        queue.push(SubtaskId(5), None);
        queue.push(SubtaskId(3), Some(1));
        queue.push(SubtaskId(9), Some(0));
        let mut order = Vec::new();
        while let Some(next) = queue.peek_next(|_| true, true) {
            order.push(queue.pop(next).map(|s| s.0));
        }
        assert_eq!(order, [Some(9), Some(3), Some(5)]);
        assert_eq!(queue.peek_next(|_| true, true), None);
    }

    #[test]
    fn pop_next_takes_what_peek_then_pop_would() {
        let priorities: Vec<i64> = (0..40).map(|i| (i * 7) % 13).collect();
        let mut a = ReadyQueue::new(3, &priorities);
        let mut b = ReadyQueue::new(3, &priorities);
        for id in 0..40u32 {
            let worker = match id % 4 {
                3 => None,
                w => Some(w),
            };
            a.push(SubtaskId(id), worker);
            b.push(SubtaskId(id), worker);
        }
        for step in 0..60u32 {
            let room = move |w: u32| !(w + step).is_multiple_of(3);
            let any = step % 5 != 0;
            let expected = a
                .peek_next(room, any)
                .map(|next| (a.pop(next).unwrap(), next));
            assert_eq!(b.pop_next(room, any), expected, "step {step}");
        }
    }

    #[test]
    fn ready_queue_skips_full_workers() {
        let mut queue = ReadyQueue::new(2, &[9, 0, 5]);
        queue.push(SubtaskId(1), Some(0));
        queue.push(SubtaskId(2), Some(1));
        assert_eq!(
            queue.peek_next(|w| w == 1, false),
            Some(NextReady::Pinned(1))
        );
        assert_eq!(queue.peek_next(|_| false, false), None);
    }

    /// The bitmap set against a sorted set, over sizes that need one to four levels.
    #[test]
    fn rank_set_pops_in_order_like_a_sorted_set() {
        for len in [1usize, 63, 64, 65, 4096, 4097, 300_000] {
            let mut set = RankSet::new(len);
            let mut model = std::collections::BTreeSet::new();
            assert_eq!(set.first(), None);
            let mut state = len as u64 * 2_654_435_761 + 1;
            for step in 0..3000u32 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let rank = ((state >> 33) % len as u64) as u32;
                if step % 3 == 2 {
                    if let Some(first) = model.pop_first() {
                        assert_eq!(set.first(), Some(first));
                        set.remove(first);
                    }
                } else if model.insert(rank) {
                    set.insert(rank);
                }
                assert_eq!(
                    set.first(),
                    model.first().copied(),
                    "len {len}, step {step}"
                );
            }
            while let Some(first) = model.pop_first() {
                assert_eq!(set.first(), Some(first));
                set.remove(first);
            }
            assert_eq!(set.first(), None);
        }
    }

    /// Removing any member, not only the first, keeps the smallest rank exact.
    #[test]
    fn rank_set_keeps_its_first_when_any_member_goes() {
        let len = 5000usize;
        let mut set = RankSet::new(len);
        let mut model = std::collections::BTreeSet::new();
        let mut state = 12_345u64;
        for _ in 0..20_000u32 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let rank = ((state >> 33) % len as u64) as u32;
            if model.remove(&rank) {
                set.remove(rank);
            } else {
                model.insert(rank);
                set.insert(rank);
            }
            assert_eq!(set.first(), model.first().copied());
        }
    }

    #[test]
    fn ranks_follow_priority_then_id_even_when_not_a_permutation() {
        assert_eq!(rank_order(&[2, 0, 1]), [1, 2, 0]);
        assert_eq!(rank_order(&[5, -1, 5, 0]), [1, 3, 0, 2]);
        assert_eq!(rank_order(&[0, 0]), [0, 1]);
    }

    #[test]
    fn choose_worker_prefers_data_then_load() {
        assert_eq!(choose_worker(&[0, 8, 16], &[0, 0, 1], 4), Some(2));
        assert_eq!(choose_worker(&[0, 0, 0], &[3, 1, 1], 4), Some(1));
        // The holder is full; worker 0 is nearly idle, so the subtask moves there.
        assert_eq!(choose_worker(&[0, 8], &[1, 4], 4), Some(0));
        // The holder is full and nobody is about to idle: wait.
        assert_eq!(choose_worker(&[0, 8], &[2, 4], 4), None);
        assert_eq!(choose_worker(&[0, 0], &[4, 4], 4), None);
    }

    #[test]
    fn queue_depth_adapts_to_subtask_time() {
        let mut depth = QueueDepth::new(None);
        assert_eq!(depth.current(), 2);
        depth.observe(1_000, 10);
        assert_eq!(depth.current(), 1024);
        let mut slow = QueueDepth::new(None);
        slow.observe(50_000_000, 1);
        assert_eq!(slow.current(), 2);
        assert_eq!(QueueDepth::new(Some(0)).current(), 1);
    }
}
