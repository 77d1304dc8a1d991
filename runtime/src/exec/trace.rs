//! Watching a run: the [`ExecObserver`] trait (progress and per-subtask spans), a
//! [`TraceRecorder`] that keeps the spans, and [`write_chrome_trace`], which writes
//! them as Chrome trace-event JSON (viewable in Perfetto or chrome://tracing): one
//! track per worker, one complete ("X") event per subtask.

use crate::plan::SubtaskId;
use serde_json::json;
use std::io::{self, BufWriter, Write};

/// When and where one subtask ran; times are nanoseconds since the run started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubtaskSpan {
    pub subtask: SubtaskId,
    pub label: u32,
    pub worker: u32,
    pub start_nanos: u64,
    pub end_nanos: u64,
}

/// One worker's memory as it last reported: the bytes its store holds now, the
/// most it has held, and the bytes it has written to spill files so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerMemory {
    pub worker: u32,
    pub held_bytes: u64,
    pub peak_bytes: u64,
    pub spilled_bytes: u64,
}

/// Callbacks from the coordinator during a run. All have empty defaults.
pub trait ExecObserver {
    fn on_start(&mut self, _total_subtasks: u64, _workers: u32) {}
    /// Called after each batch of completions, with the running count.
    fn on_subtask_done(&mut self, _done: u64, _total: u64) {}
    /// Whether workers should time each subtask (costs two clock reads per subtask).
    fn wants_spans(&self) -> bool {
        false
    }
    fn on_subtask_span(&mut self, _span: &SubtaskSpan) {}
    /// A worker reported: its memory now (after each of its reports).
    fn on_worker_memory(&mut self, _memory: &WorkerMemory) {}
}

/// Observes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl ExecObserver for NoObserver {}

impl<T: ExecObserver + ?Sized> ExecObserver for &mut T {
    fn on_start(&mut self, total_subtasks: u64, workers: u32) {
        (**self).on_start(total_subtasks, workers);
    }
    fn on_subtask_done(&mut self, done: u64, total: u64) {
        (**self).on_subtask_done(done, total);
    }
    fn wants_spans(&self) -> bool {
        (**self).wants_spans()
    }
    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        (**self).on_subtask_span(span);
    }
    fn on_worker_memory(&mut self, memory: &WorkerMemory) {
        (**self).on_worker_memory(memory);
    }
}

/// Two observers at once, e.g. `(&mut progress_bar, &mut trace_recorder)`.
impl<A: ExecObserver, B: ExecObserver> ExecObserver for (A, B) {
    fn on_start(&mut self, total_subtasks: u64, workers: u32) {
        self.0.on_start(total_subtasks, workers);
        self.1.on_start(total_subtasks, workers);
    }
    fn on_subtask_done(&mut self, done: u64, total: u64) {
        self.0.on_subtask_done(done, total);
        self.1.on_subtask_done(done, total);
    }
    fn wants_spans(&self) -> bool {
        self.0.wants_spans() || self.1.wants_spans()
    }
    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        self.0.on_subtask_span(span);
        self.1.on_subtask_span(span);
    }
    fn on_worker_memory(&mut self, memory: &WorkerMemory) {
        self.0.on_worker_memory(memory);
        self.1.on_worker_memory(memory);
    }
}

/// Keeps every span of a run, for `--trace`.
#[derive(Clone, Debug, Default)]
pub struct TraceRecorder {
    workers: u32,
    spans: Vec<SubtaskSpan>,
}

impl TraceRecorder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn spans(&self) -> &[SubtaskSpan] {
        &self.spans
    }

    pub fn workers(&self) -> u32 {
        self.workers
    }

    /// Writes the recorded run with [`write_chrome_trace`].
    pub fn write_chrome_trace(&self, out: impl Write) -> io::Result<()> {
        write_chrome_trace(out, self.workers, &self.spans)
    }
}

impl ExecObserver for TraceRecorder {
    fn on_start(&mut self, _total_subtasks: u64, workers: u32) {
        self.workers = workers;
    }
    fn wants_spans(&self) -> bool {
        true
    }
    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        self.spans.push(*span);
    }
}

/// Writes `{"traceEvents":[...]}`: a `thread_name` metadata event "worker N" per
/// worker, then one "X" event per span (pid 0, tid = worker, ts/dur in µs) named
/// `label L`, with the subtask id and label in `args`.
pub fn write_chrome_trace(out: impl Write, workers: u32, spans: &[SubtaskSpan]) -> io::Result<()> {
    write_chrome_trace_with(out, workers, spans, |span| format!("label {}", span.label))
}

/// [`write_chrome_trace`] with the caller naming each event (e.g. by statement text).
pub fn write_chrome_trace_with(
    out: impl Write,
    workers: u32,
    spans: &[SubtaskSpan],
    name: impl Fn(&SubtaskSpan) -> String,
) -> io::Result<()> {
    write_chrome_trace_grouped(out, workers, None, spans, name)
}

/// [`write_chrome_trace_with`] for workers that live in several processes (MPI
/// ranks) of `per_process` workers each: one trace process per rank (`pid` = rank,
/// named "rank R"), one track per worker in it.
pub fn write_chrome_trace_grouped(
    out: impl Write,
    workers: u32,
    per_process: Option<u32>,
    spans: &[SubtaskSpan],
    name: impl Fn(&SubtaskSpan) -> String,
) -> io::Result<()> {
    let per_process = per_process.filter(|&n| n > 0 && n < workers);
    let pid = |worker: u32| per_process.map_or(0, |n| worker / n);
    // Events are streamed one by one: a million-subtask trace should not be built
    // as a single JSON value in memory first.
    let mut out = BufWriter::new(out);
    out.write_all(b"{\"traceEvents\":[")?;
    let mut first = true;
    let mut separate = |out: &mut BufWriter<_>| -> io::Result<()> {
        if !std::mem::take(&mut first) {
            out.write_all(b",\n")?;
        }
        Ok(())
    };
    if let Some(per_process) = per_process {
        for rank in 0..workers.div_ceil(per_process) {
            separate(&mut out)?;
            let event = json!({
                "name": "process_name", "ph": "M", "pid": rank,
                "args": { "name": format!("rank {rank}") },
            });
            serde_json::to_writer(&mut out, &event)?;
        }
    }
    for worker in 0..workers {
        separate(&mut out)?;
        let event = json!({
            "name": "thread_name", "ph": "M", "pid": pid(worker), "tid": worker,
            "args": { "name": format!("worker {worker}") },
        });
        serde_json::to_writer(&mut out, &event)?;
    }
    for span in spans {
        separate(&mut out)?;
        let event = json!({
            "name": name(span), "cat": "subtask", "ph": "X", "pid": pid(span.worker),
            "tid": span.worker,
            "ts": span.start_nanos as f64 / 1000.0,
            "dur": span.end_nanos.saturating_sub(span.start_nanos) as f64 / 1000.0,
            "args": { "subtask": span.subtask.0, "label": span.label },
        });
        serde_json::to_writer(&mut out, &event)?;
    }
    out.write_all(b"],\"displayTimeUnit\":\"ms\"}\n")?;
    out.flush()
}
