//! Surviving failures: failed subtasks are retried on another worker, and chunks
//! lost with a killed worker are rebuilt from their lineage, re-running the
//! subtasks that produced them (and, transitively, those that produced their
//! inputs when those were already freed).

use super::{ChunkStatus, Coordinator, Phase};
use crate::exec::message::WorkerMessage;
use crate::exec::transport::Transport;
use crate::exec::{ChunkKernel, ExecError};
use crate::plan::{ChunkId, SubtaskId};

impl<K, T> Coordinator<'_, K, T>
where
    K: ChunkKernel,
    T: Transport<K::Value>,
{
    /// A kernel failed: retry on another worker, or stop once the retries are spent.
    pub(super) fn subtask_failed(
        &mut self,
        id: SubtaskId,
        worker: u32,
        message: String,
    ) -> Result<(), ExecError> {
        self.leave_worker(id, worker)?;
        self.unpin_inputs(id);
        let attempts = &mut self.subtasks[id.index()].attempts;
        *attempts += 1;
        if *attempts > self.max_retries {
            return Err(self.fatal(worker, Some(id), message));
        }
        self.retries += 1;
        if self.workers > 1 {
            let target = self.next_alive((worker + 1) % self.workers);
            self.retry_target.insert(id, target);
        }
        self.back_to_waiting(id);
        Ok(())
    }

    /// A worker could not fetch an input of `id` because the holder was killed.
    pub(super) fn subtask_abandoned(
        &mut self,
        id: SubtaskId,
        worker: u32,
        chunk: ChunkId,
    ) -> Result<(), ExecError> {
        if self.alive.iter().all(|&alive| alive) {
            return Err(ExecError::Internal(format!(
                "chunk {chunk} was not where it was expected"
            )));
        }
        self.leave_worker(id, worker)?;
        self.unpin_inputs(id);
        self.back_to_waiting(id);
        Ok(())
    }

    /// Drops a worker with its store (fault injection): its running subtasks are
    /// handed out again and the chunks only it held are recomputed.
    pub(super) fn kill_worker(&mut self, dead: u32) {
        self.alive[dead as usize] = false;
        let _ = self.transport.to_worker(dead, WorkerMessage::Kill);
        self.orders[dead as usize] = Default::default();
        let orphans: Vec<SubtaskId> = (0..self.plan.subtasks.len() as u32)
            .map(SubtaskId)
            .filter(|id| self.subtasks[id.index()].phase() == Phase::Running(dead))
            .collect();
        for &id in &orphans {
            // Cannot fail: the subtask is running on `dead`.
            let _ = self.leave_worker(id, dead);
            self.unpin_inputs(id);
        }
        let lost = self.forget_worker_chunks(dead);
        for &chunk in &lost {
            for &consumer in self.index.consumers(chunk) {
                let state = &mut self.subtasks[consumer.index()];
                if matches!(state.phase(), Phase::Waiting | Phase::Ready) {
                    state.set_phase(Phase::Waiting);
                    state.missing_inputs += 1;
                }
            }
        }
        for id in orphans {
            self.back_to_waiting(id);
        }
        self.need_chunks(lost);
        for id in self.ready.drain_pinned(dead) {
            let worker = self.preferred_worker(id);
            self.ready.push(id, worker);
        }
    }

    /// Removes `dead` from the chunk map; returns the chunks nobody holds any more.
    fn forget_worker_chunks(&mut self, dead: u32) -> Vec<ChunkId> {
        let mut lost = Vec::new();
        for chunk in (0..self.plan.num_chunks).map(ChunkId) {
            if self.chunk(chunk).status != ChunkStatus::Available
                || !self.locations.held_by(chunk, dead)
            {
                continue;
            }
            if !self.locations.drop_worker(chunk, dead) {
                self.chunk_mut(chunk).status = ChunkStatus::Lost;
                lost.push(chunk);
            }
            self.refresh_chunk(chunk);
        }
        lost
    }

    /// Puts a subtask that is not running back among those waiting for inputs,
    /// recomputing what it misses from scratch.
    fn back_to_waiting(&mut self, id: SubtaskId) {
        let mut unavailable = Vec::new();
        for &chunk in &self.plan.subtasks[id.index()].inputs {
            if self.chunk(chunk).status != ChunkStatus::Available {
                unavailable.push(chunk);
            }
        }
        let state = &mut self.subtasks[id.index()];
        state.set_phase(Phase::Waiting);
        state.missing_inputs = unavailable.len() as u32;
        if unavailable.is_empty() {
            self.make_ready(id);
        } else {
            self.need_chunks(unavailable);
        }
    }

    /// Makes sure every chunk in `needed` will be produced: a chunk that was freed
    /// or lost gets its producer run again, whose own freed or lost inputs are then
    /// needed in turn (a worklist, since lineage chains can be long).
    fn need_chunks(&mut self, mut needed: Vec<ChunkId>) {
        while let Some(chunk) = needed.pop() {
            if !matches!(
                self.chunk(chunk).status,
                ChunkStatus::Released | ChunkStatus::Lost
            ) {
                continue;
            }
            let producer = self.index.producer(chunk);
            if self.subtasks[producer.index()].phase() != Phase::Done {
                continue;
            }
            self.subtasks[producer.index()].set_phase(Phase::Waiting);
            self.done -= 1;
            self.recomputed += 1;
            let mut missing = 0;
            for &input in &self.plan.subtasks[producer.index()].inputs {
                let state = self.chunk_mut(input);
                state.consumers_left += 1;
                if state.status == ChunkStatus::Available {
                    self.refresh_chunk(input);
                } else {
                    missing += 1;
                    needed.push(input);
                }
            }
            self.subtasks[producer.index()].missing_inputs = missing;
            if missing == 0 {
                self.make_ready(producer);
            }
        }
    }
}
