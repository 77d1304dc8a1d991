//! The messages the coordinator and the workers exchange: the only thing they share.
//!
//! Subtasks travel as ids, not as code: every participant holds the same read-only
//! [`Plan`](crate::plan::Plan) (threads borrow it; processes or MPI ranks would each
//! build or receive it once before the run, SPMD-style). Chunk values travel as
//! `Arc<V>`; between threads moving the `Arc` is the transfer, and a transport that
//! crosses a process boundary would serialize the value instead.

use crate::plan::{ChunkId, SubtaskId};
use std::sync::Arc;

/// What a worker receives.
#[derive(Debug)]
pub enum WorkerMessage<V> {
    /// New subtasks to run and chunks to drop or spill.
    Work(WorkOrder),
    /// Another worker (`reply_to`) needs chunks this worker holds, in memory or
    /// spilled to disk: all those one work order's subtasks need from this worker,
    /// in one message (a step's alike subtasks read alike chunks, so a transfer
    /// costs one message per order and peer, not two per chunk).
    ChunkRequest { chunks: Vec<ChunkId>, reply_to: u32 },
    /// The answer to a [`WorkerMessage::ChunkRequest`], one value per chunk asked
    /// for, in its order; `None` when the peer does not hold the chunk (it was
    /// killed), so the subtasks waiting for it are handed back to the coordinator.
    ChunkReply {
        chunks: Vec<(ChunkId, Option<Arc<V>>)>,
    },
    /// Fault injection: lose the store and the queue, run nothing more, and answer
    /// every chunk request with `None`, as a dead machine would (its peers learn of
    /// the death from the failed request rather than by waiting forever).
    Kill,
    /// Drop all queued work and stop.
    Shutdown,
}

/// A batch of instructions from the coordinator to one worker. The worker applies
/// `free`, `evict` and `spill` before it queues the subtasks of `run`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkOrder {
    /// Subtasks to run, in this order once their inputs are local.
    pub run: Vec<SubtaskId>,
    /// For each subtask in `run`: how many times it failed before (for fault
    /// injection, which is deterministic per attempt). Shorter than `run` (usually
    /// empty) when the rest are first attempts.
    pub attempts: Vec<u32>,
    /// For each input of each subtask in `run`, flattened in order: a worker that
    /// holds it (possibly the receiver itself, in memory or in its spill files).
    pub sources: Vec<u32>,
    /// Chunks whose last consumer has run; drop them from memory and disk.
    pub free: Vec<ChunkId>,
    /// Copies to drop from memory only (another worker or a spill file keeps it).
    pub evict: Vec<ChunkId>,
    /// Chunks to write to this worker's spill files (unless already there) and
    /// drop from memory.
    pub spill: Vec<ChunkId>,
    /// Report completions after this many subtasks (or when the queue runs dry), so
    /// the coordinator can refill the queue before it empties.
    pub report_every: u32,
}

impl WorkOrder {
    /// An empty order with room for as many subtasks, sources and freed chunks as
    /// this one holds: the next order to the same worker is usually as large, so it
    /// fills without growing (and copying) its lists step by step.
    pub fn empty_like(&self) -> Self {
        WorkOrder {
            run: Vec::with_capacity(self.run.len()),
            attempts: Vec::with_capacity(self.attempts.len()),
            sources: Vec::with_capacity(self.sources.len()),
            free: Vec::with_capacity(self.free.len()),
            ..WorkOrder::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.run.is_empty()
            && self.free.is_empty()
            && self.evict.is_empty()
            && self.spill.is_empty()
    }
}

/// What the coordinator receives.
#[derive(Debug)]
pub enum CoordinatorMessage<V> {
    Completed(CompletionReport<V>),
    /// An error that retrying cannot fix (the worker broke down, or its spill
    /// directory failed); `subtask` names the subtask it happened in, if any. The
    /// job stops.
    Failed {
        worker: u32,
        subtask: Option<SubtaskId>,
        message: String,
    },
}

/// What one worker did since its previous report.
#[derive(Debug)]
pub struct CompletionReport<V> {
    pub worker: u32,
    /// Subtasks that ran successfully.
    pub subtasks: Vec<SubtaskId>,
    /// Bytes of each published output of each subtask in `subtasks`, flattened in order.
    pub output_bytes: Vec<u64>,
    /// `(start, end)` in nanoseconds since the run's start, one per subtask; empty
    /// unless the coordinator asked for spans.
    pub spans: Vec<(u64, u64)>,
    /// Chunks that entered this worker's memory other than by being produced here:
    /// copies from other workers, and its own spilled chunks read back. They stay
    /// until the coordinator frees, evicts or spills them.
    pub replicas: Vec<ChunkId>,
    /// The values of requested result chunks published by these subtasks.
    pub results: Vec<(ChunkId, Arc<V>)>,
    /// Subtasks whose kernel failed (or had a fault injected), with the message.
    pub failed: Vec<(SubtaskId, String)>,
    /// Subtasks given back unrun because an input could not be fetched: the peer
    /// holding it was killed. The chunk is the one that was lost.
    pub abandoned: Vec<(SubtaskId, ChunkId)>,
    /// Bytes received from other workers since the last report.
    pub transfer_bytes: u64,
    /// Bytes written to spill files since the last report.
    pub spilled_bytes: u64,
    /// The most bytes this worker's store has held in memory so far.
    pub peak_store_bytes: u64,
    /// The bytes this worker's store holds in memory as it reports.
    pub store_bytes: u64,
    /// Wall time spent running these subtasks, used to size the worker's queue.
    pub busy_nanos: u64,
}

impl<V> CompletionReport<V> {
    pub fn new(worker: u32) -> Self {
        CompletionReport {
            worker,
            subtasks: Vec::new(),
            output_bytes: Vec::new(),
            spans: Vec::new(),
            replicas: Vec::new(),
            results: Vec::new(),
            failed: Vec::new(),
            abandoned: Vec::new(),
            transfer_bytes: 0,
            spilled_bytes: 0,
            peak_store_bytes: 0,
            store_bytes: 0,
            busy_nanos: 0,
        }
    }

    /// An empty report from the same worker with room for as many subtasks and
    /// outputs as this one holds (see [`WorkOrder::empty_like`]).
    pub fn empty_like(&self) -> Self {
        CompletionReport {
            subtasks: Vec::with_capacity(self.subtasks.len()),
            output_bytes: Vec::with_capacity(self.output_bytes.len()),
            spans: Vec::with_capacity(self.spans.len()),
            ..CompletionReport::new(self.worker)
        }
    }

    /// Whether the report carries anything the coordinator must act on.
    pub fn has_news(&self) -> bool {
        !(self.subtasks.is_empty()
            && self.replicas.is_empty()
            && self.failed.is_empty()
            && self.abandoned.is_empty()
            && self.spilled_bytes == 0)
    }

    /// Whether the coordinator should hear about this report at once: a failure or
    /// an abandoned subtask is work waiting to be handed out again.
    pub fn is_urgent(&self) -> bool {
        !(self.failed.is_empty() && self.abandoned.is_empty())
    }
}
