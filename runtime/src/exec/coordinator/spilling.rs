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
        let with_coordinator = self.index.is_result(chunk) && self.results.in_memory(chunk);
        let resident = on_worker || with_coordinator;
        if resident != self.resident[chunk.index()] {
            self.resident[chunk.index()] = resident;
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
        // A result that workers hold too is spilled from both at once (it is needed
        // by its consumers first); one only the coordinator holds is needed last.
        let candidate = if on_worker
            && self.pins[chunk.index()] == 0
            && self.status[chunk.index()] == ChunkStatus::Available
        {
            Some(self.next_use(chunk))
        } else if with_coordinator && !on_worker {
            Some(AT_THE_END)
        } else {
            None
        };
        if let Some(memory) = &mut self.memory {
            memory.set_candidate(chunk, candidate);
        }
    }

    /// The first consumer of `chunk` still to be dispatched, in dispatch order.
    fn next_use(&self, chunk: ChunkId) -> NextUse {
        self.index
            .consumers(chunk)
            .iter()
            .filter(|s| matches!(self.phase[s.index()], Phase::Waiting | Phase::Ready))
            .map(|s| (self.plan.subtasks[s.index()].priority, s.0))
            .min()
            .unwrap_or(AT_THE_END)
    }

    /// Bytes a subtask adds while it runs: its inputs that must be read back from
    /// disk and its (projected or estimated) outputs; `None` when an output size is
    /// neither projected nor estimable yet. An input listed twice is counted twice,
    /// which errs on the safe side.
    pub(super) fn projected_need(&self, id: SubtaskId) -> Option<u64> {
        let memory = self.memory.as_ref()?;
        let subtask = &self.plan.subtasks[id.index()];
        let mut read_back = 0u64;
        let mut largest_input = None;
        for &chunk in &subtask.inputs {
            let bytes = self.locations.bytes(chunk);
            largest_input = largest_input.max(Some(bytes));
            if !self.locations.in_memory(chunk) {
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

    /// Spills the chunks needed furthest in the future until `need` more bytes fit
    /// or nothing more can be spilled.
    pub(super) fn spill_until_fits(&mut self, need: u64) -> Result<(), ExecError> {
        loop {
            let Some(memory) = &self.memory else {
                return Ok(());
            };
            if memory.fits(self.live.bytes(), need) {
                return Ok(());
            }
            let Some(chunk) = memory.furthest_candidate() else {
                return Ok(());
            };
            self.spill_chunk(chunk)?;
            // A spilled chunk is not resident, so it is no candidate; make sure of
            // it, or this loop would never end.
            if let Some(memory) = &mut self.memory {
                memory.set_candidate(chunk, None);
            }
        }
    }

    fn spill_chunk(&mut self, chunk: ChunkId) -> Result<(), ExecError> {
        if self.index.is_result(chunk) && self.results.in_memory(chunk) {
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
}
