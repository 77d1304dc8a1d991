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
    /// New subtasks to run and chunks to drop.
    Work(WorkOrder),
    /// Another worker (`reply_to`) needs a chunk this worker holds.
    ChunkRequest { chunk: ChunkId, reply_to: u32 },
    /// The answer to a [`WorkerMessage::ChunkRequest`]; `None` if the peer did not
    /// hold the chunk, which means a bookkeeping bug and fails the job.
    ChunkReply {
        chunk: ChunkId,
        value: Option<Arc<V>>,
    },
    /// Drop all queued work and stop.
    Shutdown,
}

/// A batch of instructions from the coordinator to one worker.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkOrder {
    /// Subtasks to run, in this order once their inputs are local.
    pub run: Vec<SubtaskId>,
    /// For each input of each subtask in `run`, flattened in order: a worker that
    /// holds it (possibly the receiver itself).
    pub sources: Vec<u32>,
    /// Chunks whose last consumer has run; drop them from the store.
    pub free: Vec<ChunkId>,
    /// Report completions after this many subtasks (or when the queue runs dry), so
    /// the coordinator can refill the queue before it empties.
    pub report_every: u32,
}

impl WorkOrder {
    pub fn is_empty(&self) -> bool {
        self.run.is_empty() && self.free.is_empty()
    }
}

/// What the coordinator receives.
#[derive(Debug)]
pub enum CoordinatorMessage<V> {
    Completed(CompletionReport<V>),
    /// A subtask failed (`subtask` is set) or the worker itself broke down; either
    /// way the job stops.
    Failed {
        worker: u32,
        subtask: Option<SubtaskId>,
        message: String,
    },
}

/// Subtasks one worker finished since its previous report.
#[derive(Debug)]
pub struct CompletionReport<V> {
    pub worker: u32,
    pub subtasks: Vec<SubtaskId>,
    /// Bytes of each published output of each subtask in `subtasks`, flattened in order.
    pub output_bytes: Vec<u64>,
    /// `(start, end)` in nanoseconds since the run's start, one per subtask; empty
    /// unless the coordinator asked for spans.
    pub spans: Vec<(u64, u64)>,
    /// Chunks copied from other workers into this worker's store since the last report.
    /// They stay until the coordinator frees them.
    pub replicas: Vec<ChunkId>,
    /// The values of requested result chunks published by these subtasks.
    pub results: Vec<(ChunkId, Arc<V>)>,
    /// Bytes received from other workers since the last report.
    pub transfer_bytes: u64,
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
            transfer_bytes: 0,
            busy_nanos: 0,
        }
    }
}
