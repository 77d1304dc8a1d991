//! The coordinator: tracks which subtasks are ready, dispatches them to workers,
//! frees chunks after their last consumer, counts live chunks, and collects results.
//! It runs on the caller's thread and talks to workers only through the transport.

use super::dispatch::{choose_worker, NextReady, QueueDepth, ReadyQueue};
use super::index::PlanIndex;
use super::locations::ChunkLocations;
use super::message::{CompletionReport, CoordinatorMessage, WorkOrder, WorkerMessage};
use super::stats::{ExecStats, LiveTracker};
use super::store::ChunkMap;
use super::trace::{ExecObserver, SubtaskSpan};
use super::transport::{Inbox, Received, Transport};
use super::{ChunkKernel, ExecError};
use crate::plan::{ChunkId, Plan, SubtaskId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The result chunks handed back, in `plan.results` order.
pub type ResultChunks<V> = Vec<(ChunkId, Arc<V>)>;

/// How often a cancellable run looks at its cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

pub struct Coordinator<'a, K: ChunkKernel, T> {
    plan: &'a Plan<K>,
    index: &'a PlanIndex,
    transport: &'a T,
    workers: u32,
    cancel: Option<Arc<AtomicBool>>,
    /// Per subtask: inputs not yet produced.
    missing_inputs: Vec<u32>,
    /// Per chunk: consumers that have not completed yet.
    consumers_left: Vec<u32>,
    locations: ChunkLocations,
    ready: ReadyQueue,
    depth: QueueDepth,
    /// Per worker: subtasks dispatched and not yet reported complete.
    load: Vec<u32>,
    /// Per worker: the order being assembled, sent at the end of each step.
    orders: Vec<WorkOrder>,
    results: ChunkMap<Arc<K::Value>>,
    live: LiveTracker,
    done: u64,
    subtasks_per_worker: Vec<u64>,
    transfer_bytes: u64,
    /// Scratch for placement: input bytes held by each worker.
    bytes_on: Vec<u64>,
}

impl<'a, K, T> Coordinator<'a, K, T>
where
    K: ChunkKernel,
    T: Transport<K::Value>,
{
    pub fn new(
        plan: &'a Plan<K>,
        index: &'a PlanIndex,
        transport: &'a T,
        queue_depth: Option<u32>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Self {
        let workers = transport.num_workers();
        let consumers_left = (0..plan.num_chunks)
            .map(|chunk| index.consumer_count(ChunkId(chunk)))
            .collect();
        Coordinator {
            plan,
            index,
            transport,
            workers,
            cancel,
            missing_inputs: plan
                .subtasks
                .iter()
                .map(|s| s.inputs.len() as u32)
                .collect(),
            consumers_left,
            locations: ChunkLocations::new(plan.num_chunks),
            ready: ReadyQueue::new(workers),
            depth: QueueDepth::new(queue_depth),
            load: vec![0; workers as usize],
            orders: vec![WorkOrder::default(); workers as usize],
            results: ChunkMap::default(),
            live: LiveTracker::default(),
            done: 0,
            subtasks_per_worker: vec![0; workers as usize],
            transfer_bytes: 0,
            bytes_on: vec![0; workers as usize],
        }
    }

    /// Runs the plan to completion; returns the results in `plan.results` order.
    /// The caller shuts the workers down afterwards, whatever the outcome.
    pub fn run(
        mut self,
        mut inbox: impl Inbox<CoordinatorMessage<K::Value>>,
        observer: &mut dyn ExecObserver,
    ) -> Result<(ResultChunks<K::Value>, ExecStats), ExecError> {
        let total = self.plan.subtasks.len() as u64;
        for (index, subtask) in self.plan.subtasks.iter().enumerate() {
            if subtask.inputs.is_empty() {
                self.make_ready(SubtaskId(index as u32));
            }
        }
        self.dispatch();
        self.send_orders(&mut inbox)?;
        while self.done < total {
            self.receive(&mut inbox, observer)?;
            while let Some(message) = inbox.try_recv() {
                self.handle(message, observer)?;
            }
            observer.on_subtask_done(self.done, total);
            if self.is_cancelled() {
                return Err(ExecError::Cancelled);
            }
            self.dispatch();
            self.send_orders(&mut inbox)?;
            if self.done < total && self.load.iter().all(|&load| load == 0) {
                return Err(ExecError::Internal(
                    "no subtask can run, yet the job is not finished".to_string(),
                ));
            }
        }
        let results = self.take_results()?;
        Ok((results, self.stats()))
    }

    /// Waits for one message (watching the cancel flag) and handles it.
    fn receive(
        &mut self,
        inbox: &mut impl Inbox<CoordinatorMessage<K::Value>>,
        observer: &mut dyn ExecObserver,
    ) -> Result<(), ExecError> {
        loop {
            let timeout = self.cancel.as_ref().map(|_| CANCEL_POLL);
            match inbox.recv(timeout) {
                Received::Message(message) => return self.handle(message, observer),
                Received::TimedOut => {}
                Received::Closed => {
                    return Err(ExecError::Internal("every worker is gone".to_string()))
                }
            }
            if self.is_cancelled() {
                return Err(ExecError::Cancelled);
            }
        }
    }

    fn is_cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn handle(
        &mut self,
        message: CoordinatorMessage<K::Value>,
        observer: &mut dyn ExecObserver,
    ) -> Result<(), ExecError> {
        match message {
            CoordinatorMessage::Completed(report) => {
                self.completed(report, observer);
                Ok(())
            }
            CoordinatorMessage::Failed {
                worker,
                subtask,
                message,
            } => Err(self.failure(worker, subtask, message)),
        }
    }

    fn failure(&self, worker: u32, subtask: Option<SubtaskId>, message: String) -> ExecError {
        match subtask {
            Some(subtask) => ExecError::SubtaskFailed {
                subtask,
                label: self.plan.subtasks[subtask.index()].label,
                worker,
                message,
            },
            None => ExecError::Internal(message),
        }
    }

    fn completed(&mut self, report: CompletionReport<K::Value>, observer: &mut dyn ExecObserver) {
        let worker = report.worker;
        for &chunk in &report.replicas {
            self.locations.copied(chunk, worker);
        }
        self.transfer_bytes += report.transfer_bytes;
        self.depth.observe(report.busy_nanos, report.subtasks.len());
        self.results.extend(report.results);
        let mut output_bytes = report.output_bytes.iter().copied();
        for (position, &id) in report.subtasks.iter().enumerate() {
            self.load[worker as usize] -= 1;
            self.subtasks_per_worker[worker as usize] += 1;
            self.done += 1;
            let subtask = &self.plan.subtasks[id.index()];
            for &(_, chunk) in &subtask.outputs {
                let bytes = output_bytes.next().unwrap_or(0);
                self.locations.produced(chunk, worker, bytes);
                self.live.produced(bytes);
            }
            for &(_, chunk) in &subtask.outputs {
                self.output_available(chunk);
            }
            for &chunk in &subtask.inputs {
                let left = &mut self.consumers_left[chunk.index()];
                *left -= 1;
                if *left == 0 {
                    self.release(chunk);
                }
            }
            if let Some(&(start_nanos, end_nanos)) = report.spans.get(position) {
                observer.on_subtask_span(&SubtaskSpan {
                    subtask: id,
                    label: subtask.label,
                    worker,
                    start_nanos,
                    end_nanos,
                });
            }
        }
    }

    /// Wakes the chunk's consumers, or releases it at once if it has none.
    fn output_available(&mut self, chunk: ChunkId) {
        let consumers = self.index.consumers(chunk);
        if consumers.is_empty() {
            self.release(chunk);
        }
        for &consumer in consumers {
            let missing = &mut self.missing_inputs[consumer.index()];
            *missing -= 1;
            if *missing == 0 {
                self.make_ready(consumer);
            }
        }
    }

    /// The chunk's last consumer has run: drop it everywhere. A result stays live
    /// because the coordinator still holds it for the caller.
    fn release(&mut self, chunk: ChunkId) {
        let stored = self.index.consumer_count(chunk) > 0;
        let orders = &mut self.orders;
        self.locations.remove(chunk, |worker| {
            if stored {
                orders[worker as usize].free.push(chunk);
            }
        });
        if !self.index.is_result(chunk) {
            self.live.released(self.locations.bytes(chunk));
        }
    }

    fn make_ready(&mut self, id: SubtaskId) {
        let subtask = &self.plan.subtasks[id.index()];
        let worker = subtask.worker.map(|worker| worker % self.workers);
        self.ready.push(id, subtask.priority, worker);
    }

    /// Hands ready subtasks to workers, in priority order, while queues have room.
    fn dispatch(&mut self) {
        let depth = self.depth.current();
        let mut shared_heap_blocked = false;
        loop {
            let load = &self.load;
            let Some(next) = self
                .ready
                .peek_next(|worker| load[worker as usize] < depth, !shared_heap_blocked)
            else {
                break;
            };
            let Some(id) = self.ready.pop(next) else {
                break;
            };
            let worker = match next {
                NextReady::Pinned(worker) => Some(worker),
                NextReady::Any => self.place(id, depth),
            };
            match worker {
                Some(worker) => self.assign(id, worker),
                None => {
                    // The best subtask must wait; later ones may not overtake it
                    // through the shared heap, only through their own pinned heaps.
                    let subtask = &self.plan.subtasks[id.index()];
                    self.ready.push(id, subtask.priority, None);
                    shared_heap_blocked = true;
                }
            }
        }
    }

    fn place(&mut self, id: SubtaskId, depth: u32) -> Option<u32> {
        if self.workers == 1 {
            return (self.load[0] < depth).then_some(0);
        }
        self.bytes_on.fill(0);
        let inputs = &self.plan.subtasks[id.index()].inputs;
        self.locations
            .add_bytes_by_worker(inputs, &mut self.bytes_on);
        choose_worker(&self.bytes_on, &self.load, depth)
    }

    fn assign(&mut self, id: SubtaskId, worker: u32) {
        self.load[worker as usize] += 1;
        let order = &mut self.orders[worker as usize];
        order.run.push(id);
        for &chunk in &self.plan.subtasks[id.index()].inputs {
            order.sources.push(self.locations.source_for(chunk, worker));
        }
    }

    fn send_orders(
        &mut self,
        inbox: &mut impl Inbox<CoordinatorMessage<K::Value>>,
    ) -> Result<(), ExecError> {
        let report_every = self.depth.report_every();
        for worker in 0..self.workers {
            let order = &mut self.orders[worker as usize];
            if order.is_empty() {
                continue;
            }
            let mut order = std::mem::take(order);
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
                return self.failure(worker, subtask, message);
            }
        }
        ExecError::Internal(format!("worker {worker} stopped unexpectedly"))
    }

    fn take_results(&mut self) -> Result<ResultChunks<K::Value>, ExecError> {
        self.plan
            .results
            .iter()
            .map(|&chunk| match self.results.get(&chunk) {
                Some(value) => Ok((chunk, Arc::clone(value))),
                None => Err(ExecError::Internal(format!(
                    "result chunk {chunk} was never reported"
                ))),
            })
            .collect()
    }

    fn stats(&self) -> ExecStats {
        ExecStats {
            subtasks: self.done,
            workers: self.workers,
            run_seconds: 0.0,
            transfer_bytes: self.transfer_bytes,
            peak_live_chunks: self.live.peak_chunks(),
            peak_live_bytes: self.live.peak_bytes(),
            subtasks_per_worker: self.subtasks_per_worker.clone(),
            spilled_bytes: 0,
            retries: 0,
        }
    }
}
