//! Handing out ready subtasks: the ready queue, the choice of a worker, the memory
//! admission of a run with a limit, and the work orders sent to workers.

use super::{Coordinator, Phase};
use crate::exec::message::{CoordinatorMessage, WorkerMessage};
use crate::exec::ready::{choose_worker, NextReady};
use crate::exec::transport::{Inbox, Transport};
use crate::exec::{ChunkKernel, ExecError};
use crate::plan::SubtaskId;

impl<K, T> Coordinator<'_, K, T>
where
    K: ChunkKernel,
    T: Transport<K::Value>,
{
    /// All inputs are available: queue the subtask (unless a stale entry for it is
    /// still queued, which then becomes valid again).
    pub(super) fn make_ready(&mut self, id: SubtaskId) {
        let state = &mut self.subtasks[id.index()];
        state.set_phase(Phase::Ready);
        if !state.queued {
            let worker = self.preferred_worker(id);
            self.enqueue(id, worker);
        }
    }

    pub(super) fn enqueue(&mut self, id: SubtaskId, worker: Option<u32>) {
        self.subtasks[id.index()].queued = true;
        self.ready.push(id, worker);
    }

    /// The retry target of a failed subtask, else the plan's choice; a dead worker's
    /// share goes to the next live one.
    pub(super) fn preferred_worker(&self, id: SubtaskId) -> Option<u32> {
        // The map is empty unless something failed: skip hashing in the common case.
        let retry = match self.retry_target.is_empty() {
            true => None,
            false => self.retry_target.get(&id).copied(),
        };
        let wanted = retry.or_else(|| {
            self.plan.subtasks[id.index()]
                .worker
                .map(|worker| worker % self.workers)
        });
        if let Some(home) = self.home {
            if self.subtasks[id.index()].at_home {
                // Among the home workers, the one the plan or the retry picked.
                let wanted = wanted.unwrap_or(id.0) % home;
                return Some(
                    (0..home)
                        .map(|offset| (wanted + offset) % home)
                        .find(|&candidate| self.alive[candidate as usize])
                        .unwrap_or(wanted),
                );
            }
        }
        Some(self.next_alive(wanted?))
    }

    /// `worker` if it is alive, else the next live worker after it.
    pub(super) fn next_alive(&self, worker: u32) -> u32 {
        if self.alive[worker as usize] {
            return worker;
        }
        (0..self.workers)
            .map(|offset| (worker + offset) % self.workers)
            .find(|&candidate| self.alive[candidate as usize])
            .unwrap_or(worker)
    }

    /// Hands ready subtasks to workers, in priority order, while queues have room
    /// and memory allows.
    pub(super) fn dispatch(&mut self) -> Result<(), ExecError> {
        let depth = self.depth.current();
        let mut shared_heap_blocked = false;
        loop {
            let (load, alive) = (&self.load, &self.alive);
            let Some((id, next)) = self.ready.pop_next(
                |worker| alive[worker as usize] && load[worker as usize] < depth,
                !shared_heap_blocked,
            ) else {
                break;
            };
            let state = &mut self.subtasks[id.index()];
            state.queued = false;
            if state.phase() != Phase::Ready {
                continue;
            }
            let (worker, heap) = match next {
                NextReady::Pinned(worker) => (Some(worker), Some(worker)),
                NextReady::Any => (self.place(id, depth), None),
            };
            let Some(worker) = worker else {
                // The best subtask must wait; later ones may not overtake it
                // through the shared heap, only through their own pinned heaps.
                self.enqueue(id, None);
                shared_heap_blocked = true;
                continue;
            };
            if !self.admit(id, worker)? {
                // Memory is full until running subtasks complete.
                self.enqueue(id, heap);
                break;
            }
            self.assign(id, worker);
        }
        Ok(())
    }

    fn place(&mut self, id: SubtaskId, depth: u32) -> Option<u32> {
        if self.workers == 1 {
            return (self.load[0] < depth).then_some(0);
        }
        let inputs = &self.plan.subtasks[id.index()].inputs;
        let all_alive = self.alive.iter().all(|&alive| alive);
        if inputs.is_empty() && all_alive {
            // Nothing to be near: the least loaded worker with room (what
            // `choose_worker` picks when no worker holds input bytes).
            let (worker, load) = (0u32..)
                .zip(&self.load)
                .min_by_key(|&(w, &load)| (load, w))?;
            return (*load < depth).then_some(worker);
        }
        self.bytes_on.fill(0);
        self.locations
            .add_bytes_by_worker(inputs, &mut self.bytes_on);
        if all_alive {
            return choose_worker(&self.bytes_on, &self.load, depth);
        }
        // A dead worker looks full and holds nothing.
        let load: Vec<u32> = (0..self.workers as usize)
            .map(|w| {
                if self.alive[w] {
                    self.load[w]
                } else {
                    u32::MAX
                }
            })
            .collect();
        choose_worker(&self.bytes_on, &load, depth)
    }

    /// Pins the subtask's inputs and, under a memory limit, reserves its projected
    /// memory, spilling other chunks to make room. Refuses (and unpins) when it does
    /// not fit while other subtasks are running, whose completion will free memory.
    fn admit(&mut self, id: SubtaskId, worker: u32) -> Result<bool, ExecError> {
        self.pin_inputs(id);
        if self.memory.is_none() {
            return Ok(true);
        }
        let group = self.group_of(worker);
        let need = self.projected_need(id, group);
        if let Some(need) = need {
            self.spill_until_fits(need, group)?;
        }
        let fits = match (&self.memory, need) {
            (Some(memory), Some(need)) => memory.fits(group, self.group_live_bytes(group), need),
            _ => false,
        };
        if !fits && self.running > 0 {
            self.unpin_inputs(id);
            return Ok(false);
        }
        if let Some(memory) = &mut self.memory {
            memory.reserve(id, group, need.unwrap_or(0));
        }
        Ok(true)
    }

    fn assign(&mut self, id: SubtaskId, worker: u32) {
        let state = &mut self.subtasks[id.index()];
        state.set_phase(Phase::Running(worker));
        let attempts = state.attempts;
        self.load[worker as usize] += 1;
        self.running += 1;
        let order = &mut self.orders[worker as usize];
        order.run.push(id);
        // Attempts are listed only once one is not the first (see `WorkOrder`).
        if attempts > 0 || !order.attempts.is_empty() {
            order.attempts.resize(order.run.len() - 1, 0);
            order.attempts.push(attempts);
        }
        for &chunk in &self.plan.subtasks[id.index()].inputs {
            order.sources.push(self.locations.source_for(chunk, worker));
        }
    }

    pub(super) fn pin_inputs(&mut self, id: SubtaskId) {
        if self.memory.is_none() {
            return;
        }
        for &chunk in &self.plan.subtasks[id.index()].inputs {
            self.pins[chunk.index()] += 1;
            self.refresh_chunk(chunk);
        }
    }

    pub(super) fn unpin_inputs(&mut self, id: SubtaskId) {
        if self.memory.is_none() {
            return;
        }
        for &chunk in &self.plan.subtasks[id.index()].inputs {
            self.pins[chunk.index()] -= 1;
            self.refresh_chunk(chunk);
        }
    }

    pub(super) fn send_orders(
        &mut self,
        inbox: &mut impl Inbox<CoordinatorMessage<K::Value>>,
    ) -> Result<(), ExecError> {
        let report_every = self.depth.report_every();
        for worker in 0..self.workers {
            let order = &mut self.orders[worker as usize];
            if order.is_empty() {
                continue;
            }
            let next = order.empty_like();
            let mut order = std::mem::replace(order, next);
            if !self.alive[worker as usize] {
                continue;
            }
            order.report_every = report_every;
            if self
                .transport
                .to_worker(worker, WorkerMessage::Work(order))
                .is_err()
            {
                return Err(self.explain_lost_worker(worker, inbox));
            }
        }
        Ok(())
    }

    /// A worker stopped listening; it reports why before it stops, so look for that.
    fn explain_lost_worker(
        &self,
        worker: u32,
        inbox: &mut impl Inbox<CoordinatorMessage<K::Value>>,
    ) -> ExecError {
        while let Some(message) = inbox.try_recv() {
            if let CoordinatorMessage::Failed {
                worker,
                subtask,
                message,
            } = message
            {
                return self.fatal(worker, subtask, message);
            }
        }
        ExecError::Internal(format!("worker {worker} stopped unexpectedly"))
    }
}
