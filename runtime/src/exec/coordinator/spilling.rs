//! Residency and spilling: which chunks count as live, which may be spilled and
//! when they are next needed (Belady's rule, see [`crate::exec::memory`]), and the
//! spill orders themselves.

use super::{ChunkStatus, Coordinator, Phase};
use crate::exec::memory::{NextUse, AT_THE_END};
use crate::exec::transport::Transport;
use crate::exec::{ChunkKernel, ExecError};
use crate::plan::{ChunkId, SubtaskId};

impl<K, T> Coordinator<'_, K, T>
where
    K: ChunkKernel,
    T: Transport<K::Value>,
{
    /// Brings the chunk's live accounting and spill candidacy up to date; called
    /// after anything about the chunk changed.
    #[inline]
    pub(super) fn refresh_chunk(&mut self, chunk: ChunkId) {
        let on_worker = self.locations.in_memory(chunk);
        let state = self.chunk(chunk);
        let with_coordinator = state.is_result && self.results.in_memory(chunk);
        let resident = on_worker || with_coordinator;
        if resident != state.resident {
            self.chunk_mut(chunk).resident = resident;
            let bytes = self.locations.bytes(chunk);
            if resident {
                self.live.produced(bytes);
            } else {
                self.live.released(bytes);
            }
        }
        if self.memory.is_none() {
            return;
        }
        if self.groups > 1 {
            self.refresh_groups(chunk, with_coordinator);
            return;
        }
        // A result that workers hold too is spilled from both at once (it is needed
        // by its consumers first); one only the coordinator holds is needed last.
        let candidate = if on_worker
            && self.pins[chunk.index()] == 0
            && self.chunk(chunk).status == ChunkStatus::Available
        {
            Some(self.next_use(chunk))
        } else if with_coordinator && !on_worker {
            Some(AT_THE_END)
        } else {
            None
        };
        if let Some(memory) = &mut self.memory {
            memory.set_candidate(0, chunk, candidate);
        }
    }

    /// [`Self::refresh_chunk`]'s accounting per process: which processes hold the
    /// chunk in memory, their live bytes, and the chunk's candidacy in each.
    fn refresh_groups(&mut self, chunk: ChunkId, with_coordinator: bool) {
        let workers = self.worker_groups(chunk);
        let held = workers | u64::from(with_coordinator);
        let before = std::mem::replace(&mut self.group_mask[chunk.index()], held);
        let bytes = self.locations.bytes(chunk);
        let spillable =
            self.pins[chunk.index()] == 0 && self.chunk(chunk).status == ChunkStatus::Available;
        let mut next_use = None;
        for group in 0..self.groups {
            let bit = 1u64 << group;
            if (held | before) & bit == 0 {
                continue;
            }
            match (held & bit != 0, before & bit != 0) {
                (true, false) => self.group_live[group as usize] += bytes,
                (false, true) => self.group_live[group as usize] -= bytes,
                _ => {}
            }
            let candidate = if workers & bit != 0 && spillable {
                Some(*next_use.get_or_insert_with(|| self.next_use(chunk)))
            } else if group == 0 && with_coordinator && workers & bit == 0 {
                Some(AT_THE_END)
            } else {
                None
            };
            if let Some(memory) = &mut self.memory {
                memory.set_candidate(group, chunk, candidate);
            }
        }
    }

    /// The processes whose workers hold `chunk` in memory (bit g).
    fn worker_groups(&self, chunk: ChunkId) -> u64 {
        let mut groups = 0u64;
        self.locations
            .for_each_memory_holder(chunk, |worker| groups |= 1 << self.group_of(worker));
        groups
    }

    /// The process (memory group) of `worker`.
    pub(super) fn group_of(&self, worker: u32) -> u32 {
        match self.groups {
            1 => 0,
            _ => worker / self.per_process,
        }
    }

    /// The bytes `group` holds in memory.
    pub(super) fn group_live_bytes(&self, group: u32) -> u64 {
        match self.groups {
            1 => self.live.bytes(),
            _ => self.group_live[group as usize],
        }
    }

    /// The first consumer of `chunk` still to be dispatched, in dispatch order.
    fn next_use(&self, chunk: ChunkId) -> NextUse {
        self.index
            .consumers(chunk)
            .iter()
            .filter(|s| {
                matches!(
                    self.subtasks[s.index()].phase(),
                    Phase::Waiting | Phase::Ready
                )
            })
            .map(|s| (self.plan.subtasks[s.index()].priority, s.0))
            .min()
            .unwrap_or(AT_THE_END)
    }

    /// Bytes a subtask adds to `group` while it runs: its inputs that must be read
    /// back from disk (or, with several processes, fetched from another) and its
    /// (projected or estimated) outputs; `None` when an output size is neither
    /// projected nor estimable yet. An input listed twice is counted twice, which
    /// errs on the safe side.
    pub(super) fn projected_need(&self, id: SubtaskId, group: u32) -> Option<u64> {
        let memory = self.memory.as_ref()?;
        let subtask = &self.plan.subtasks[id.index()];
        let mut read_back = 0u64;
        let mut largest_input = None;
        for &chunk in &subtask.inputs {
            let bytes = self.locations.bytes(chunk);
            largest_input = largest_input.max(Some(bytes));
            let here = match self.groups {
                1 => self.locations.in_memory(chunk),
                _ => self.group_mask[chunk.index()] & (1 << group) != 0,
            };
            if !here {
                read_back += bytes;
            }
        }
        let mut outputs = 0u64;
        for &(_, chunk) in &subtask.outputs {
            let bytes = memory.output_bytes(chunk, subtask.label, largest_input)?;
            outputs = outputs.saturating_add(bytes);
        }
        Some(read_back.saturating_add(outputs))
    }

    /// Spills the chunks `group` needs furthest in the future until `need` more
    /// bytes fit in it or nothing more can be spilled. With several processes, a
    /// chunk another process's workers also hold is only dropped from this one's.
    pub(super) fn spill_until_fits(&mut self, need: u64, group: u32) -> Result<(), ExecError> {
        loop {
            let Some(memory) = &self.memory else {
                return Ok(());
            };
            if memory.fits(group, self.group_live_bytes(group), need) {
                return Ok(());
            }
            let Some(chunk) = memory.furthest_candidate(group) else {
                return Ok(());
            };
            let holders = self.worker_groups(chunk);
            if self.groups > 1 && holders & !(1 << group) != 0 {
                // Other processes' workers hold it too, perhaps for a subtask running
                // there (pins are not per process): only this process's copies go —
                // its workers', and in process 0 the coordinator's copy of a result.
                if holders & (1 << group) != 0 {
                    self.evict_from_group(chunk, group);
                }
                if group == 0 {
                    self.spill_result(chunk)?;
                    self.refresh_chunk(chunk);
                }
            } else {
                self.spill_chunk(chunk)?;
            }
            // A spilled or evicted chunk is no candidate here; make sure of it, or
            // this loop would never end.
            if let Some(memory) = &mut self.memory {
                memory.set_candidate(group, chunk, None);
            }
        }
    }

    /// Drops `chunk` from the memory of `group`'s workers: another process's
    /// workers hold it too.
    fn evict_from_group(&mut self, chunk: ChunkId, group: u32) {
        let mut holders = Vec::new();
        self.locations.for_each_memory_holder(chunk, |worker| {
            if worker / self.per_process == group {
                holders.push(worker);
            }
        });
        for worker in holders {
            self.orders[worker as usize].evict.push(chunk);
            self.locations.drop_worker(chunk, worker);
        }
        self.refresh_chunk(chunk);
    }

    /// Spills the chunk everywhere: the coordinator's copy of a result and every
    /// worker's copy (a file written at its home).
    fn spill_chunk(&mut self, chunk: ChunkId) -> Result<(), ExecError> {
        self.spill_result(chunk)?;
        if self.locations.in_memory(chunk) {
            let action = self.locations.spill(chunk);
            if let Some(worker) = action.write_on {
                self.orders[worker as usize].spill.push(chunk);
            }
            for worker in action.evict_on {
                self.orders[worker as usize].evict.push(chunk);
            }
        }
        self.refresh_chunk(chunk);
        Ok(())
    }

    /// Writes the coordinator's copy of a result chunk to disk, if it holds one.
    fn spill_result(&mut self, chunk: ChunkId) -> Result<(), ExecError> {
        if self.chunk(chunk).is_result && self.results.in_memory(chunk) {
            let dir = self.spill_dir.ok_or_else(|| {
                ExecError::Internal("a memory limit without a spill directory".to_string())
            })?;
            let written = self.results.spill(chunk, dir).map_err(|error| {
                ExecError::Internal(format!(
                    "cannot spill result {chunk} to {}: {error}",
                    dir.display()
                ))
            })?;
            self.spilled_bytes += written;
        }
        Ok(())
    }
}
