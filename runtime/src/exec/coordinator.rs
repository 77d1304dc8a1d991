//! The coordinator: tracks which subtasks are ready, dispatches them to workers,
//! frees chunks after their last consumer, counts live chunks, and collects results.
//! It runs on the caller's thread and talks to workers only through the transport.
//!
//! Its submodules extend the same struct: [`dispatching`] (placement, memory
//! admission, work orders), [`spilling`] (residency and Belady's choice) and
//! [`recovery`] (retries, killed workers, lineage).
//!
//! Each subtask is in one [`Phase`]; `missing_inputs` is meaningful for waiting
//! subtasks only and counts input occurrences whose chunk is not available. Each
//! chunk has a [`ChunkStatus`]; an available chunk always has pending consumers and
//! is held by some worker, in memory or in a spill file.
//!
//! What the coordinator tracks is one record per subtask ([`SubtaskState`]) and one
//! per chunk ([`ChunkState`], inside the chunk's [`ChunkLocations`] record), indexed
//! by the dense ids: handling a completion visits a subtask's record and each of its
//! chunks' once, instead of a dozen tables one after the other.

mod dispatching;
mod recovery;
mod spilling;

use super::faults::KillSchedule;
use super::index::PlanIndex;
use super::locations::ChunkLocations;
use super::memory::{MemoryBudget, MAX_PROCESSES};
use super::message::{CompletionReport, CoordinatorMessage, WorkOrder};
use super::ready::{QueueDepth, ReadyQueue};
use super::results::ResultStore;
use super::stats::{ExecStats, LiveTracker};
use super::store::IdMap;
use super::trace::{ExecObserver, SubtaskSpan, WorkerMemory};
use super::transport::{Inbox, Received, Transport};
use super::{ChunkKernel, ExecError, ExecOptions};
use crate::plan::{ChunkId, Plan, SubtaskId};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The result chunks handed back, in `plan.results` order.
pub type ResultChunks<V> = Vec<(ChunkId, Arc<V>)>;

/// How often a cancellable run looks at its cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Some inputs are not available yet.
    Waiting,
    /// In the ready queue.
    Ready,
    /// Dispatched to this worker, not reported yet.
    Running(u32),
    Done,
}

/// The coordinator's record of one subtask (16 bytes).
#[derive(Clone, Copy, Debug)]
struct SubtaskState {
    /// The [`Phase`], packed: a running subtask's worker, or one of the codes below.
    phase: u32,
    /// While waiting: input occurrences whose chunk is not available.
    missing_inputs: u32,
    /// Failed runs so far.
    attempts: u32,
    /// Whether the ready queue holds an entry for it (possibly stale).
    queued: bool,
    /// It must run on a home worker ([`ChunkKernel::runs_at_home`]); only with
    /// [`ExecOptions::workers_per_process`].
    at_home: bool,
}

impl SubtaskState {
    const WAITING: u32 = u32::MAX;
    const READY: u32 = u32::MAX - 1;
    const DONE: u32 = u32::MAX - 2;

    #[inline]
    fn phase(&self) -> Phase {
        match self.phase {
            Self::WAITING => Phase::Waiting,
            Self::READY => Phase::Ready,
            Self::DONE => Phase::Done,
            worker => Phase::Running(worker),
        }
    }

    /// Worker ids stay below the codes: a run cannot have billions of workers.
    #[inline]
    fn set_phase(&mut self, phase: Phase) {
        self.phase = match phase {
            Phase::Waiting => Self::WAITING,
            Phase::Ready => Self::READY,
            Phase::Done => Self::DONE,
            Phase::Running(worker) => worker,
        };
    }
}

/// The coordinator's record of one chunk (beside where it lives).
#[derive(Clone, Copy, Debug)]
struct ChunkState {
    /// Input occurrences in subtasks that are not done.
    consumers_left: u32,
    status: ChunkStatus,
    /// Whether it is counted in `live`.
    resident: bool,
    /// One of the plan's results (fixed).
    is_result: bool,
    /// Some subtask reads it, so its producer keeps it (fixed).
    consumed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChunkStatus {
    Unproduced,
    /// Held by a worker until its pending consumers have run.
    Available,
    /// Every consumer ran; dropped everywhere (a result stays with the coordinator).
    Released,
    /// Its only holder was killed while consumers still needed it.
    Lost,
}

pub struct Coordinator<'a, K: ChunkKernel, T> {
    plan: &'a Plan<K>,
    index: &'a PlanIndex,
    transport: &'a T,
    workers: u32,
    cancel: Option<Arc<AtomicBool>>,
    max_retries: u32,
    kill: Option<KillSchedule>,
    spill_dir: Option<&'a Path>,

    subtasks: Vec<SubtaskState>,
    /// The worker a failed subtask should be retried on.
    retry_target: IdMap<SubtaskId, u32>,
    /// With [`ExecOptions::workers_per_process`]: the workers below it are home to
    /// the subtasks that must run there ([`SubtaskState::at_home`]).
    home: Option<u32>,
    /// Workers per process (MPI rank); `workers` in one process.
    per_process: u32,
    /// Processes with a memory budget each: 1, or the processes of a run across
    /// several under a memory limit.
    groups: u32,
    /// With several `groups`: per chunk, the processes holding it in memory (bit g;
    /// a result the coordinator holds counts in process 0), and per process the bytes
    /// that makes.
    group_mask: Vec<u64>,
    group_live: Vec<u64>,

    /// Per chunk: input occurrences in running subtasks; such chunks stay in memory.
    /// Empty (and not counted) without a memory limit.
    pins: Vec<u32>,
    /// Where each chunk lives, and its [`ChunkState`].
    locations: ChunkLocations<ChunkState>,
    results: ResultStore<K>,
    memory: Option<MemoryBudget>,

    ready: ReadyQueue,
    depth: QueueDepth,
    /// Per worker: subtasks dispatched and not yet reported.
    load: Vec<u32>,
    alive: Vec<bool>,
    /// Subtasks dispatched and not yet reported, over all workers.
    running: u64,
    /// Per worker: the order being assembled, sent at the end of each step.
    orders: Vec<WorkOrder>,

    live: LiveTracker,
    done: u64,
    /// The highest `done` shown to the observer, which never sees it go back.
    progress: u64,
    subtasks_per_worker: Vec<u64>,
    transfer_bytes: u64,
    spilled_bytes: u64,
    retries: u64,
    recomputed: u64,
    peak_worker_bytes: Vec<u64>,
    /// Per worker: bytes it has written to spill files.
    spilled_by_worker: Vec<u64>,
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
        options: &ExecOptions,
        spill_dir: Option<&'a Path>,
    ) -> Self {
        let workers = transport.num_workers();
        let num_subtasks = plan.subtasks.len();
        let num_chunks = plan.num_chunks as usize;
        let home = options
            .workers_per_process
            .map(|home| home.clamp(1, workers));
        let mut priorities = Vec::with_capacity(num_subtasks);
        let mut subtasks = Vec::with_capacity(num_subtasks);
        for subtask in &plan.subtasks {
            priorities.push(subtask.priority);
            subtasks.push(SubtaskState {
                phase: SubtaskState::WAITING,
                missing_inputs: subtask.inputs.len() as u32,
                attempts: 0,
                queued: false,
                at_home: home.is_some() && subtask.ops.iter().any(|op| op.kernel.runs_at_home()),
            });
        }
        let chunks = (0..plan.num_chunks).map(|chunk| {
            let consumers = index.consumer_count(ChunkId(chunk));
            ChunkState {
                consumers_left: consumers,
                status: ChunkStatus::Unproduced,
                resident: false,
                is_result: index.is_result(ChunkId(chunk)),
                consumed: consumers > 0,
            }
        });
        let w = workers as usize;
        let per_process = options
            .workers_per_process
            .map_or(workers, |n| n.clamp(1, workers));
        let processes = workers.div_ceil(per_process);
        let groups = match options.memory_limit {
            Some(_) if (2..=MAX_PROCESSES).contains(&processes) => processes,
            _ => 1,
        };
        let split = groups > 1;
        Coordinator {
            per_process,
            groups,
            group_mask: if split {
                vec![0; num_chunks]
            } else {
                Vec::new()
            },
            group_live: vec![0; groups as usize],
            plan,
            index,
            transport,
            workers,
            cancel: options.cancel.clone(),
            max_retries: options.max_retries,
            kill: KillSchedule::new(options, num_subtasks as u64),
            spill_dir,
            subtasks,
            retry_target: IdMap::default(),
            home,
            // Pins matter only to spilling: without a limit they are not counted.
            pins: match options.memory_limit {
                Some(_) => vec![0; num_chunks],
                None => Vec::new(),
            },
            locations: ChunkLocations::new(chunks),
            results: ResultStore::default(),
            memory: options.memory_limit.map(|limit| {
                let projected = options.projected_chunk_bytes.clone();
                // Past `MAX_PROCESSES` processes, one budget as large as theirs together.
                let limit = match groups == processes {
                    true => limit,
                    false => limit.saturating_mul(u64::from(processes)),
                };
                MemoryBudget::new(limit, groups, num_subtasks, plan.num_chunks, projected)
            }),
            ready: ReadyQueue::new(workers, &priorities),
            depth: QueueDepth::new(options.queue_depth),
            load: vec![0; w],
            alive: vec![true; w],
            running: 0,
            orders: vec![WorkOrder::default(); w],
            live: LiveTracker::default(),
            done: 0,
            progress: 0,
            subtasks_per_worker: vec![0; w],
            transfer_bytes: 0,
            spilled_bytes: 0,
            retries: 0,
            recomputed: 0,
            peak_worker_bytes: vec![0; w],
            spilled_by_worker: vec![0; w],
            bytes_on: vec![0; w],
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
        for index in 0..self.subtasks.len() {
            if self.subtasks[index].missing_inputs == 0 {
                self.make_ready(SubtaskId(index as u32));
            }
        }
        self.step(&mut inbox)?;
        while self.done < total {
            self.receive(&mut inbox, observer)?;
            while let Some(message) = inbox.try_recv() {
                self.handle(message, observer)?;
            }
            self.progress = self.progress.max(self.done);
            observer.on_subtask_done(self.progress, total);
            if self.is_cancelled() {
                return Err(ExecError::Cancelled);
            }
            self.step(&mut inbox)?;
            if self.done < total && self.running == 0 {
                return Err(ExecError::Internal(
                    "no subtask can run, yet the job is not finished".to_string(),
                ));
            }
        }
        let results = self.take_results()?;
        Ok((results, self.stats()))
    }

    /// Kills the scheduled worker when its time has come, hands out ready work and
    /// sends the orders.
    fn step(
        &mut self,
        inbox: &mut impl Inbox<CoordinatorMessage<K::Value>>,
    ) -> Result<(), ExecError> {
        if let Some(kill) = self.kill {
            if self.done >= kill.after_done {
                self.kill = None;
                self.kill_worker(kill.worker);
            }
        }
        self.dispatch()?;
        self.send_orders(inbox)
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
            // A killed worker's last words describe work that is being redone.
            CoordinatorMessage::Completed(report) if !self.alive[report.worker as usize] => Ok(()),
            CoordinatorMessage::Failed { worker, .. } if !self.alive[worker as usize] => Ok(()),
            CoordinatorMessage::Completed(report) => self.process_report(report, observer),
            CoordinatorMessage::Failed {
                worker,
                subtask,
                message,
            } => Err(self.fatal(worker, subtask, message)),
        }
    }

    fn fatal(&self, worker: u32, subtask: Option<SubtaskId>, message: String) -> ExecError {
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

    fn process_report(
        &mut self,
        report: CompletionReport<K::Value>,
        observer: &mut dyn ExecObserver,
    ) -> Result<(), ExecError> {
        let worker = report.worker;
        let peak = &mut self.peak_worker_bytes[worker as usize];
        *peak = (*peak).max(report.peak_store_bytes);
        self.transfer_bytes += report.transfer_bytes;
        self.spilled_bytes += report.spilled_bytes;
        self.spilled_by_worker[worker as usize] += report.spilled_bytes;
        observer.on_worker_memory(&WorkerMemory {
            worker,
            held_bytes: report.store_bytes,
            peak_bytes: *peak,
            spilled_bytes: self.spilled_by_worker[worker as usize],
        });
        for &chunk in &report.replicas {
            self.replica_arrived(chunk, worker);
        }
        self.depth.observe(report.busy_nanos, report.subtasks.len());
        for (chunk, value) in report.results {
            self.results.insert(chunk, value);
        }
        let mut output_bytes = report.output_bytes.iter().copied();
        for (position, &id) in report.subtasks.iter().enumerate() {
            self.completed(id, worker, &mut output_bytes)?;
            if let Some(&(start_nanos, end_nanos)) = report.spans.get(position) {
                observer.on_subtask_span(&SubtaskSpan {
                    subtask: id,
                    label: self.plan.subtasks[id.index()].label,
                    worker,
                    start_nanos,
                    end_nanos,
                });
            }
        }
        for (id, message) in report.failed {
            self.subtask_failed(id, worker, message)?;
        }
        for &(id, chunk) in &report.abandoned {
            self.subtask_abandoned(id, worker, chunk)?;
        }
        Ok(())
    }

    fn completed(
        &mut self,
        id: SubtaskId,
        worker: u32,
        output_bytes: &mut impl Iterator<Item = u64>,
    ) -> Result<(), ExecError> {
        self.leave_worker(id, worker)?;
        self.subtasks[id.index()].set_phase(Phase::Done);
        self.done += 1;
        self.subtasks_per_worker[worker as usize] += 1;
        let plan = self.plan;
        let subtask = &plan.subtasks[id.index()];
        for &(_, chunk) in &subtask.outputs {
            let bytes = output_bytes.next().unwrap_or(0);
            self.output_produced(chunk, worker, bytes, subtask.label);
        }
        let limited = self.memory.is_some();
        for &chunk in &subtask.inputs {
            if limited {
                self.pins[chunk.index()] -= 1;
            }
            let left = &mut self.chunk_mut(chunk).consumers_left;
            *left -= 1;
            if *left == 0 {
                self.release(chunk);
            } else if limited {
                // Its next use moved on; residency itself did not change.
                self.refresh_chunk(chunk);
            }
        }
        Ok(())
    }

    /// The coordinator's record of a chunk.
    #[inline]
    fn chunk(&self, chunk: ChunkId) -> &ChunkState {
        self.locations.state(chunk)
    }

    #[inline]
    fn chunk_mut(&mut self, chunk: ChunkId) -> &mut ChunkState {
        self.locations.state_mut(chunk)
    }

    /// Ends a subtask's stay on `worker` (completed, failed or given back).
    fn leave_worker(&mut self, id: SubtaskId, worker: u32) -> Result<(), ExecError> {
        if self.subtasks[id.index()].phase() != Phase::Running(worker) {
            return Err(ExecError::Internal(format!(
                "worker {worker} reported {id}, which it was not running"
            )));
        }
        self.load[worker as usize] -= 1;
        self.running -= 1;
        if let Some(memory) = &mut self.memory {
            memory.release(id);
        }
        Ok(())
    }

    fn output_produced(&mut self, chunk: ChunkId, worker: u32, bytes: u64, label: u32) {
        if let Some(memory) = &mut self.memory {
            memory.observe_output(label, bytes);
        }
        let state = *self.chunk(chunk);
        let stored = state.consumed;
        if state.status == ChunkStatus::Available {
            // Recomputed while a copy survived: the new one is a copy too.
            if stored {
                self.locations.copied(chunk, worker);
            }
            self.refresh_chunk(chunk);
            return;
        }
        self.locations.produced(chunk, worker, bytes, stored);
        self.became_available(chunk);
    }

    /// The chunk exists (again) on a worker: wake its waiting consumers, or drop it
    /// at once if none is left.
    fn became_available(&mut self, chunk: ChunkId) {
        self.chunk_mut(chunk).status = ChunkStatus::Available;
        self.refresh_chunk(chunk);
        if self.chunk(chunk).consumers_left == 0 {
            self.release(chunk);
            return;
        }
        let index = self.index;
        for &consumer in index.consumers(chunk) {
            let state = &mut self.subtasks[consumer.index()];
            if state.phase() == Phase::Waiting {
                state.missing_inputs -= 1;
                if state.missing_inputs == 0 {
                    self.make_ready(consumer);
                }
            }
        }
    }

    /// A worker holds a copy the map did not know of.
    fn replica_arrived(&mut self, chunk: ChunkId, worker: u32) {
        match self.chunk(chunk).status {
            ChunkStatus::Available => {
                self.locations.copied(chunk, worker);
                self.refresh_chunk(chunk);
            }
            ChunkStatus::Lost => {
                // Fetched from a worker before it was killed: the chunk survives here.
                let bytes = self.locations.bytes(chunk);
                self.locations.produced(chunk, worker, bytes, true);
                self.became_available(chunk);
            }
            ChunkStatus::Released | ChunkStatus::Unproduced => {
                self.orders[worker as usize].free.push(chunk);
            }
        }
    }

    /// The chunk's last consumer has run: drop it everywhere. A result stays live
    /// because the coordinator still holds it for the caller.
    fn release(&mut self, chunk: ChunkId) {
        self.chunk_mut(chunk).status = ChunkStatus::Released;
        let (orders, alive) = (&mut self.orders, &self.alive);
        self.locations.remove(chunk, |worker| {
            if alive[worker as usize] {
                orders[worker as usize].free.push(chunk);
            }
        });
        self.refresh_chunk(chunk);
    }

    fn take_results(&mut self) -> Result<ResultChunks<K::Value>, ExecError> {
        self.plan
            .results
            .iter()
            .map(|&chunk| {
                let value = self
                    .results
                    .take(chunk)
                    .map_err(|error| ExecError::Internal(error.to_string()))?;
                Ok((chunk, value))
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
            spilled_bytes: self.spilled_bytes,
            retries: self.retries,
            recomputed: self.recomputed,
            peak_worker_bytes: self.peak_worker_bytes.clone(),
        }
    }
}
