//! A worker: its own chunk store, a queue of subtasks, and a loop that serves
//! messages between subtasks.
//!
//! A worker never blocks while it has something to run, and it answers chunk
//! requests from peers between any two subtasks; a subtask whose inputs are on other
//! workers waits (without blocking the worker) until the replies arrive. So two
//! workers that need each other's chunks cannot deadlock. Kernel calls run under
//! `catch_unwind`, and so does the whole loop: whatever happens, the coordinator
//! gets a message and never waits forever.

use super::index::PlanIndex;
use super::message::{CompletionReport, CoordinatorMessage, WorkOrder, WorkerMessage};
use super::store::{ChunkMap, ChunkStore, IdMap};
use super::transport::{Disconnected, Inbox, Received, Transport};
use super::ChunkKernel;
use crate::plan::{ChunkId, OpArg, Plan, Subtask, SubtaskId};
use std::any::Any;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

/// What a worker needs besides its inbox; all of it is read-only and shared.
pub struct WorkerContext<'a, K, T> {
    pub plan: &'a Plan<K>,
    pub index: &'a PlanIndex,
    pub transport: &'a T,
    pub me: u32,
    /// The run's start; spans are measured from it.
    pub epoch: Instant,
    pub record_spans: bool,
}

/// The worker loop must end: shutdown was requested, the coordinator is gone, or a
/// failure was already reported.
struct Stop;

/// Runs a worker until it is told to stop or fails.
pub fn run_worker<K, T, I>(context: WorkerContext<'_, K, T>, inbox: I)
where
    K: ChunkKernel,
    T: Transport<K::Value>,
    I: Inbox<WorkerMessage<K::Value>>,
{
    let transport = context.transport;
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

struct Worker<'a, K: ChunkKernel, T> {
    context: WorkerContext<'a, K, T>,
    store: ChunkStore<K::Value>,
    runnable: VecDeque<SubtaskId>,
    /// Subtasks waiting for chunks from peers, with the number still missing.
    waiting: IdMap<SubtaskId, u32>,
    /// Chunks requested from peers, with the subtasks waiting for each.
    fetching: ChunkMap<Vec<SubtaskId>>,
    report: CompletionReport<K::Value>,
    /// The values of the running subtask's ops; kept to reuse its allocation.
    op_values: Vec<Arc<K::Value>>,
    report_every: u32,
    busy_since: Option<Instant>,
}

impl<'a, K, T> Worker<'a, K, T>
where
    K: ChunkKernel,
    T: Transport<K::Value>,
{
    fn new(context: WorkerContext<'a, K, T>) -> Self {
        let me = context.me;
        Worker {
            context,
            store: ChunkStore::default(),
            runnable: VecDeque::new(),
            waiting: IdMap::default(),
            fetching: ChunkMap::default(),
            report: CompletionReport::new(me),
            op_values: Vec::new(),
            report_every: 1,
            busy_since: None,
        }
    }

    fn run(mut self, mut inbox: impl Inbox<WorkerMessage<K::Value>>) -> Result<(), Stop> {
        loop {
            while let Some(message) = inbox.try_recv() {
                self.handle(message)?;
            }
            match self.runnable.pop_front() {
                Some(subtask) => {
                    self.busy_since.get_or_insert_with(Instant::now);
                    self.run_subtask(subtask)?;
                    let reported = self.report.subtasks.len() as u32;
                    if reported >= self.report_every || self.runnable.is_empty() {
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
            WorkerMessage::Work(order) => self.accept(order),
            WorkerMessage::ChunkRequest { chunk, reply_to } => {
                let value = self.store.get(chunk).cloned();
                // A peer that is gone no longer needs the chunk; the coordinator
                // learns of its end through its own message.
                let _ = self
                    .context
                    .transport
                    .to_worker(reply_to, WorkerMessage::ChunkReply { chunk, value });
                Ok(())
            }
            WorkerMessage::ChunkReply { chunk, value } => self.received(chunk, value),
            WorkerMessage::Shutdown => Err(Stop),
        }
    }

    fn accept(&mut self, order: WorkOrder) -> Result<(), Stop> {
        for chunk in order.free {
            self.store.remove(chunk);
        }
        self.report_every = order.report_every.max(1);
        let plan = self.context.plan;
        let mut sources = order.sources.iter().copied();
        for subtask in order.run {
            let inputs = &plan.subtasks[subtask.index()].inputs;
            let mut missing = 0;
            for &chunk in inputs {
                let source = sources.next().ok_or_else(|| {
                    self.fail(Some(subtask), "internal error: a work order lacks sources")
                })?;
                if self.store.contains(chunk) {
                    continue;
                }
                missing += 1;
                let waiters = self.fetching.entry(chunk).or_default();
                if waiters.is_empty() {
                    let request = WorkerMessage::ChunkRequest {
                        chunk,
                        reply_to: self.context.me,
                    };
                    let _ = self.context.transport.to_worker(source, request);
                }
                waiters.push(subtask);
            }
            if missing == 0 {
                self.runnable.push_back(subtask);
            } else {
                self.waiting.insert(subtask, missing);
            }
        }
        Ok(())
    }

    fn received(&mut self, chunk: ChunkId, value: Option<Arc<K::Value>>) -> Result<(), Stop> {
        let waiters = self.fetching.remove(&chunk).unwrap_or_default();
        let Some(value) = value else {
            let message = format!("internal error: chunk {chunk} was not where it was expected");
            return Err(self.fail(waiters.first().copied(), &message));
        };
        self.report.transfer_bytes += K::nbytes(&value) as u64;
        self.report.replicas.push(chunk);
        self.store.insert(chunk, value);
        for subtask in waiters {
            if let Some(missing) = self.waiting.get_mut(&subtask) {
                *missing -= 1;
                if *missing == 0 {
                    self.waiting.remove(&subtask);
                    self.runnable.push_back(subtask);
                }
            }
        }
        Ok(())
    }

    fn run_subtask(&mut self, id: SubtaskId) -> Result<(), Stop> {
        let plan = self.context.plan;
        let subtask = &plan.subtasks[id.index()];
        let start = self.context.record_spans.then(Instant::now);
        let mut values = std::mem::take(&mut self.op_values);
        if let Err(message) = run_ops(subtask, &self.store, &mut values) {
            return Err(self.fail(Some(id), &message));
        }
        for &(op_index, chunk) in &subtask.outputs {
            let value = &values[op_index as usize];
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
        values.clear();
        self.op_values = values;
        Ok(())
    }

    fn flush_report(&mut self) -> Result<(), Stop> {
        if self.report.subtasks.is_empty() && self.report.replicas.is_empty() {
            return Ok(());
        }
        let mut report =
            std::mem::replace(&mut self.report, CompletionReport::new(self.context.me));
        report.busy_nanos = self
            .busy_since
            .take()
            .map_or(0, |since| since.elapsed().as_nanos() as u64);
        self.send(CoordinatorMessage::Completed(report))
            .map_err(|Disconnected| Stop)
    }

    /// Reports a failure; the caller then stops the worker.
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

/// Runs a subtask's ops in order on inputs from the store, pushing every op's value
/// onto the empty `values`.
fn run_ops<K: ChunkKernel>(
    subtask: &Subtask<K>,
    store: &ChunkStore<K::Value>,
    values: &mut Vec<Arc<K::Value>>,
) -> Result<(), String> {
    for op in &subtask.ops {
        let args = op
            .args
            .iter()
            .map(|&arg| match arg {
                OpArg::Input(i) => {
                    let chunk = subtask.inputs[i as usize];
                    let value = store.get(chunk).ok_or_else(|| {
                        format!("internal error: input {chunk} is missing from the store")
                    })?;
                    Ok(&**value)
                }
                OpArg::Local(i) => Ok(&*values[i as usize]),
            })
            .collect::<Result<Vec<&K::Value>, String>>()?;
        let value = run_kernel(&op.kernel, &args)?;
        values.push(Arc::new(value));
    }
    Ok(())
}

/// Runs one kernel, turning a panic into an error.
fn run_kernel<K: ChunkKernel>(kernel: &K, args: &[&K::Value]) -> Result<K::Value, String> {
    match catch_unwind(AssertUnwindSafe(|| kernel.run(args))) {
        Ok(result) => result,
        Err(payload) => Err(format!("kernel panicked: {}", panic_text(&*payload))),
    }
}

/// The message a panic carried, for error reports.
pub fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_string()
    }
}
