//! A worker: its own chunk store, a queue of subtasks, and a loop that serves
//! messages between subtasks.
//!
//! A worker never blocks while it has something to run, and it answers chunk
//! requests from peers between any two subtasks; a subtask whose inputs are on other
//! workers waits (without blocking the worker) until the replies arrive. So two
//! workers that need each other's chunks cannot deadlock. Kernel calls run under
//! `catch_unwind`, and so does the whole loop: whatever happens, the coordinator
//! gets a message and never waits forever.
//!
//! A kernel that fails does not stop the worker: the failure is reported at once
//! and the coordinator decides whether to retry. Spilled chunks are read back just
//! before the subtask that needs them runs (and served to peers straight from the
//! file). A killed worker keeps answering chunk requests with "lost", so peers
//! waiting on it hand their subtasks back instead of hanging.

use super::faults::FaultInjection;
use super::index::PlanIndex;
use super::kernel_call::{panic_text, run_ops, OpScratch};
use super::message::{CompletionReport, CoordinatorMessage, WorkOrder, WorkerMessage};
use super::store::{ChunkMap, ChunkStore, IdMap};
use super::transport::{Disconnected, Inbox, Received, Transport};
use super::ChunkKernel;
use crate::plan::{ChunkId, Plan, SubtaskId};
use smallvec::SmallVec;
use std::collections::hash_map::Entry;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// What a worker needs besides its inbox; all of it is read-only and shared (owned,
/// so the worker loop can run on a thread of the [`super::pool::WorkerPool`]).
pub struct WorkerContext<K, T> {
    pub plan: Arc<Plan<K>>,
    pub index: Arc<PlanIndex>,
    pub transport: Arc<T>,
    pub me: u32,
    /// The run's start; spans are measured from it.
    pub epoch: Instant,
    pub record_spans: bool,
    /// Where spill files go; `None` without a memory limit.
    pub spill_dir: Option<PathBuf>,
    pub faults: Option<FaultInjection>,
}

/// The worker loop must end: shutdown was requested, the coordinator is gone, or a
/// fatal failure was already reported.
struct Stop;

/// Runs a worker until it is told to stop or fails.
pub fn run_worker<K, T, I>(context: WorkerContext<K, T>, inbox: I)
where
    K: ChunkKernel,
    T: Transport<K::Value>,
    I: Inbox<WorkerMessage<K::Value>>,
{
    let transport = Arc::clone(&context.transport);
    let me = context.me;
    let outcome = catch_unwind(AssertUnwindSafe(|| Worker::new(context).run(inbox)));
    if let Err(payload) = outcome {
        let message = format!(
            "internal error: worker {me} crashed: {}",
            panic_text(&*payload)
        );
        let _ = transport.to_coordinator(CoordinatorMessage::Failed {
            worker: me,
            subtask: None,
            message,
        });
    }
}

/// The subtasks waiting for one fetched chunk.
type Waiters = SmallVec<[SubtaskId; 2]>;

/// A queued subtask and how many times it failed before.
#[derive(Clone, Copy)]
struct Queued {
    subtask: SubtaskId,
    attempt: u32,
}

struct Worker<K: ChunkKernel, T> {
    context: WorkerContext<K, T>,
    store: ChunkStore<K>,
    runnable: VecDeque<Queued>,
    /// Subtasks waiting for chunks from peers, with the number still missing.
    waiting: IdMap<SubtaskId, (u32, Queued)>,
    /// Chunks requested from peers, with the subtasks waiting for each (possibly
    /// none, when they were abandoned while the request was out); usually one, kept
    /// inline.
    fetching: ChunkMap<Waiters>,
    /// Per peer: chunks to ask it for, gathered while a work order is accepted and
    /// sent as one request per peer at its end (one list per worker, made at start).
    requests: Vec<Vec<ChunkId>>,
    report: CompletionReport<K::Value>,
    /// The running subtask's op values; kept to reuse their allocations.
    scratch: OpScratch<K::Value>,
    report_every: u32,
    busy_since: Option<Instant>,
    killed: bool,
}

impl<K, T> Worker<K, T>
where
    K: ChunkKernel,
    T: Transport<K::Value>,
{
    fn new(context: WorkerContext<K, T>) -> Self {
        let me = context.me;
        let store = ChunkStore::new(me, context.spill_dir.as_deref());
        let requests = vec![Vec::new(); context.transport.num_workers() as usize];
        Worker {
            context,
            store,
            runnable: VecDeque::new(),
            waiting: IdMap::default(),
            fetching: ChunkMap::default(),
            requests,
            report: CompletionReport::new(me),
            scratch: OpScratch::default(),
            report_every: 1,
            busy_since: None,
            killed: false,
        }
    }

    fn run(mut self, mut inbox: impl Inbox<WorkerMessage<K::Value>>) -> Result<(), Stop> {
        loop {
            while let Some(message) = inbox.try_recv() {
                self.handle(message)?;
            }
            if self.report.is_urgent() {
                self.flush_report()?;
            }
            match self.runnable.pop_front() {
                Some(queued) => {
                    self.busy_since.get_or_insert_with(Instant::now);
                    self.run_subtask(queued)?;
                    let reported = self.report.subtasks.len() as u32;
                    if reported >= self.report_every
                        || self.runnable.is_empty()
                        || self.report.is_urgent()
                    {
                        self.flush_report()?;
                    }
                }
                None => {
                    self.flush_report()?;
                    match inbox.recv(None) {
                        Received::Message(message) => self.handle(message)?,
                        Received::TimedOut | Received::Closed => return Ok(()),
                    }
                }
            }
        }
    }

    fn handle(&mut self, message: WorkerMessage<K::Value>) -> Result<(), Stop> {
        match message {
            WorkerMessage::Shutdown => Err(Stop),
            WorkerMessage::ChunkRequest { chunks, reply_to } => {
                let chunks = chunks
                    .into_iter()
                    .map(|chunk| Ok((chunk, self.serve(chunk)?)))
                    .collect::<Result<_, Stop>>()?;
                // A peer that is gone no longer needs the chunks; the coordinator
                // learns of its end through its own message.
                let _ = self
                    .context
                    .transport
                    .to_worker(reply_to, WorkerMessage::ChunkReply { chunks });
                Ok(())
            }
            WorkerMessage::Kill => {
                self.die();
                Ok(())
            }
            _ if self.killed => Ok(()),
            WorkerMessage::Work(order) => self.accept(order),
            WorkerMessage::ChunkReply { chunks } => {
                for (chunk, value) in chunks {
                    self.received(chunk, value);
                }
                Ok(())
            }
        }
    }

    /// The value of a chunk a peer asked for, from memory or from its spill file.
    fn serve(&self, chunk: ChunkId) -> Result<Option<Arc<K::Value>>, Stop> {
        if self.killed {
            return Ok(None);
        }
        if let Some(value) = self.store.get(chunk) {
            return Ok(Some(Arc::clone(value)));
        }
        if self.store.is_spilled(chunk) {
            return match self.store.read_spilled(chunk) {
                Ok(value) => Ok(Some(value)),
                Err(error) => Err(self.fail(None, &error.to_string())),
            };
        }
        Ok(None)
    }

    fn accept(&mut self, order: WorkOrder) -> Result<(), Stop> {
        for chunk in order.free {
            self.store.remove(chunk);
        }
        for chunk in order.evict {
            self.store.evict(chunk);
        }
        for chunk in order.spill {
            match self.store.spill(chunk) {
                Ok(written) => self.report.spilled_bytes += written,
                Err(error) => return Err(self.fail(None, &error.to_string())),
            }
        }
        self.report_every = order.report_every.max(1);
        let mut sources = order.sources.iter().copied();
        for (position, &subtask) in order.run.iter().enumerate() {
            let attempt = order.attempts.get(position).copied().unwrap_or(0);
            let queued = Queued { subtask, attempt };
            let missing = self.request_inputs(subtask, &mut sources)?;
            if missing == 0 {
                self.runnable.push_back(queued);
            } else {
                self.waiting.insert(subtask, (missing, queued));
            }
        }
        self.send_requests();
        Ok(())
    }

    /// Sends the chunk requests gathered by [`Self::request_inputs`], one message
    /// per peer.
    fn send_requests(&mut self) {
        let me = self.context.me;
        for (source, chunks) in (0u32..).zip(&mut self.requests) {
            if chunks.is_empty() {
                continue;
            }
            let request = WorkerMessage::ChunkRequest {
                chunks: std::mem::take(chunks),
                reply_to: me,
            };
            // A source whose inbox is gone has stopped for good, and the
            // coordinator learns why from that worker's own message.
            let _ = self.context.transport.to_worker(source, request);
        }
    }

    /// Notes the subtask's inputs that are not here, to be asked of peers (see
    /// [`Self::send_requests`]); returns how many it must wait for. Its own spilled
    /// chunks are read back only when it runs.
    fn request_inputs(
        &mut self,
        subtask: SubtaskId,
        sources: &mut impl Iterator<Item = u32>,
    ) -> Result<u32, Stop> {
        let me = self.context.me;
        let mut missing = 0;
        for &chunk in &self.context.plan.subtasks[subtask.index()].inputs {
            let Some(source) = sources.next() else {
                return Err(self.fail(Some(subtask), "internal error: a work order lacks sources"));
            };
            if self.store.in_memory(chunk) {
                continue;
            }
            let requested = self.fetching.contains_key(&chunk);
            if source == me && !requested {
                continue;
            }
            missing += 1;
            match self.fetching.entry(chunk) {
                Entry::Occupied(mut waiters) => waiters.get_mut().push(subtask),
                Entry::Vacant(slot) => {
                    slot.insert(Waiters::from_elem(subtask, 1));
                    match self.requests.get_mut(source as usize) {
                        Some(requests) => requests.push(chunk),
                        None => {
                            let message =
                                format!("internal error: a work order names worker {source}");
                            return Err(self.fail(Some(subtask), &message));
                        }
                    }
                }
            }
        }
        Ok(missing)
    }

    fn received(&mut self, chunk: ChunkId, value: Option<Arc<K::Value>>) {
        let waiters = self.fetching.remove(&chunk).unwrap_or_default();
        let Some(value) = value else {
            for subtask in waiters {
                self.abandon(subtask, chunk);
            }
            return;
        };
        self.report.transfer_bytes += K::nbytes(&value) as u64;
        self.report.replicas.push(chunk);
        self.store.insert(chunk, value);
        for subtask in waiters {
            if let Some((missing, queued)) = self.waiting.get_mut(&subtask) {
                *missing -= 1;
                if *missing == 0 {
                    let queued = *queued;
                    self.waiting.remove(&subtask);
                    self.runnable.push_back(queued);
                }
            }
        }
    }

    /// Gives a waiting subtask back to the coordinator: `chunk` was lost.
    fn abandon(&mut self, subtask: SubtaskId, chunk: ChunkId) {
        if self.waiting.remove(&subtask).is_none() {
            return;
        }
        self.report.abandoned.push((subtask, chunk));
        for waiters in self.fetching.values_mut() {
            waiters.retain(|waiter| *waiter != subtask);
        }
    }

    fn run_subtask(&mut self, queued: Queued) -> Result<(), Stop> {
        let Queued {
            subtask: id,
            attempt,
        } = queued;
        if let Some(faults) = self.context.faults {
            if faults.strikes(id, attempt) {
                let message = format!("injected fault (attempt {})", attempt + 1);
                self.report.failed.push((id, message));
                return Ok(());
            }
        }
        // Without a memory limit nothing is ever spilled, so there is nothing to read
        // back (an input missing from the store fails in `run_ops`).
        if self.context.spill_dir.is_some() {
            if let Err(message) = self.read_back_inputs(id)? {
                self.report.failed.push((id, message));
                return Ok(());
            }
        }
        let subtask = &self.context.plan.subtasks[id.index()];
        let start = self.context.record_spans.then(Instant::now);
        let scratch = &mut self.scratch;
        if let Err(message) = run_ops(subtask, &self.store, scratch) {
            scratch.clear();
            self.report.failed.push((id, message));
            return Ok(());
        }
        for &(op_index, chunk) in &subtask.outputs {
            // Published ops are never dropped (see `run_ops`).
            let Some(value) = &scratch.values[op_index as usize] else {
                debug_assert!(false, "published op {op_index} of {id} has no value");
                continue;
            };
            self.report.output_bytes.push(K::nbytes(value) as u64);
            if self.context.index.is_result(chunk) {
                self.report.results.push((chunk, Arc::clone(value)));
            }
            // A chunk nobody consumes is never asked for, so it is not kept.
            if self.context.index.consumer_count(chunk) > 0 {
                self.store.insert(chunk, Arc::clone(value));
            }
        }
        if let Some(start) = start {
            let since_epoch = |t: Instant| t.duration_since(self.context.epoch).as_nanos() as u64;
            let span = (since_epoch(start), since_epoch(Instant::now()));
            self.report.spans.push(span);
        }
        self.report.subtasks.push(id);
        scratch.clear();
        Ok(())
    }

    /// Reads the subtask's spilled inputs back into memory. An input that is
    /// nowhere is a bookkeeping bug (fatal); a file that cannot be read fails the
    /// subtask, which may then be retried.
    fn read_back_inputs(&mut self, id: SubtaskId) -> Result<Result<(), String>, Stop> {
        for &chunk in &self.context.plan.subtasks[id.index()].inputs {
            if self.store.in_memory(chunk) {
                continue;
            }
            if !self.store.is_spilled(chunk) {
                let message = format!("internal error: input {chunk} is missing from the store");
                return Err(self.fail(Some(id), &message));
            }
            if let Err(error) = self.store.load(chunk) {
                return Ok(Err(error.to_string()));
            }
            self.report.replicas.push(chunk);
        }
        Ok(Ok(()))
    }

    /// Loses the store and all queued work, as a crashed machine would.
    fn die(&mut self) {
        self.killed = true;
        self.store.clear();
        self.runnable.clear();
        self.waiting.clear();
        self.fetching.clear();
        self.scratch.clear();
        self.report = CompletionReport::new(self.context.me);
    }

    fn flush_report(&mut self) -> Result<(), Stop> {
        if self.killed || !self.report.has_news() {
            return Ok(());
        }
        let next = self.report.empty_like();
        let mut report = std::mem::replace(&mut self.report, next);
        report.peak_store_bytes = self.store.peak_bytes();
        report.store_bytes = self.store.bytes();
        report.busy_nanos = self
            .busy_since
            .take()
            .map_or(0, |since| since.elapsed().as_nanos() as u64);
        self.send(CoordinatorMessage::Completed(report))
            .map_err(|Disconnected| Stop)
    }

    /// Reports a fatal failure; the caller then stops the worker.
    fn fail(&self, subtask: Option<SubtaskId>, message: &str) -> Stop {
        let _ = self.send(CoordinatorMessage::Failed {
            worker: self.context.me,
            subtask,
            message: message.to_string(),
        });
        Stop
    }

    fn send(&self, message: CoordinatorMessage<K::Value>) -> Result<(), Disconnected> {
        self.context.transport.to_coordinator(message)
    }
}
