//! Running a compiled program: executes its plan on the multi-worker runtime, then
//! prints the outputs in program order exactly as NumPy would (saves happen in the
//! plan itself, through their save steps). Everything is computed before anything is
//! printed. A run that fails prints, as Python would, the outputs that precede the
//! failing statement (run again on their own, see [`failure`]), then the error,
//! which names the source expression whose chunk failed.

pub mod allocator;
pub mod failure;
pub mod interrupt;
pub mod memory;
pub mod output;
pub mod progress;
pub mod stats;

pub use stats::RunStats;

use crate::driver::{Compiled, DriverError};
use crate::subtask::{SubtaskGraph, SubtaskId};
use marsc_runtime::exec::ChunkKernel;
use marsc_runtime::exec::{
    execute, write_chrome_trace_with, ExecError, ExecObserver, ExecOptions, ExecStats, NoObserver,
    SubtaskSpan, TraceRecorder,
};
use marsc_runtime::kernel::Kernel;
use marsc_runtime::plan::Plan;
use progress::ProgressObserver;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How to run a compiled program.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Number of workers, at least 1.
    pub workers: u32,
    /// Show a progress bar on stderr for runs longer than about a second.
    pub progress: bool,
    /// Write a Chrome trace of the run here.
    pub trace: Option<PathBuf>,
    /// Keep chunk data within this many bytes, spilling to disk past it; a subtask
    /// that alone cannot fit is refused before anything runs.
    pub memory_limit: Option<u64>,
    /// `(rate, seed)`: fail subtask attempts at random, for testing recovery.
    pub inject_faults: Option<(f64, u64)>,
    /// `(worker, fraction)`: drop a worker part-way, for testing recovery.
    pub kill_worker: Option<(u32, f64)>,
    /// When set to true (e.g. by [`interrupt`]'s Ctrl-C handler) the run stops at
    /// chunk granularity, removes its temporary files and partial saves, and fails.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for RunOptions {
    /// One worker per core, no progress bar, no trace.
    fn default() -> RunOptions {
        RunOptions {
            workers: ExecOptions::default().workers,
            progress: false,
            trace: None,
            memory_limit: None,
            inject_faults: None,
            kill_worker: None,
            cancel: None,
        }
    }
}

/// The observers a run asked for.
struct Observers {
    progress: Option<ProgressObserver>,
    trace: Option<TraceRecorder>,
}

impl ExecObserver for Observers {
    fn on_start(&mut self, total: u64, workers: u32) {
        if let Some(progress) = &mut self.progress {
            progress.on_start(total, workers);
        }
        if let Some(trace) = &mut self.trace {
            trace.on_start(total, workers);
        }
    }
    fn on_subtask_done(&mut self, done: u64, total: u64) {
        if let Some(progress) = &mut self.progress {
            progress.on_subtask_done(done, total);
        }
    }
    fn wants_spans(&self) -> bool {
        self.trace.is_some()
    }
    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        if let Some(trace) = &mut self.trace {
            trace.on_subtask_span(span);
        }
    }
}

/// Runs `program`, writing what it prints to `out`; returns the executor's figures.
pub fn run_program(
    program: &Compiled,
    options: &RunOptions,
    out: &mut dyn Write,
) -> Result<ExecStats, DriverError> {
    // A terminating signal waits for this run to clean up before ending the process.
    let _running = interrupt::running();
    if is_cancelled(options) {
        return Err(interrupted());
    }
    let mut exec_options = ExecOptions {
        workers: options.workers.max(1),
        inject_faults: options.inject_faults,
        kill_worker: options.kill_worker,
        cancel: options.cancel.clone(),
        ..ExecOptions::default()
    };
    if let Some(limit) = options.memory_limit {
        let projected = memory::projected_chunk_bytes(&program.chunks);
        memory::check_fits(&program.plan, &projected, limit, &program.tileables)?;
        exec_options.memory_limit = Some(limit);
        exec_options.projected_chunk_bytes = Some(projected);
    }
    crate::plan::mapped::map_loaded_files(&program.plan, &program.tileables)
        .map_err(DriverError::RunFailed)?;
    let mut observers = Observers {
        progress: options.progress.then(ProgressObserver::new),
        trace: options.trace.as_ref().map(|_| TraceRecorder::new()),
    };
    let outcome = execute(&program.plan, &exec_options, &mut observers);
    if let Some(progress) = &mut observers.progress {
        progress.finish();
    }
    if let (Some(path), Some(trace)) = (&options.trace, &observers.trace) {
        write_trace(program, trace, path)?;
    }
    let mut executed = match outcome {
        Ok(executed) => executed,
        Err(error) => {
            failure::remove_partial_saves(&program.plan);
            if error == ExecError::Cancelled {
                return Err(interrupted());
            }
            return Err(failed_run(program, &exec_options, error, out));
        }
    };
    let results: output::Results = executed.results.into_iter().collect();
    let count = program.chunks.outputs.len();
    let printed = output::write_prints(&program.chunks, &results, count, out)
        .map_err(DriverError::Runtime)?;
    // The printed values are assembled while every result is still held.
    let held: u64 = results
        .values()
        .map(|value| Kernel::nbytes(value) as u64)
        .sum();
    let peak = &mut executed.stats.peak_live_bytes;
    *peak = (*peak).max(held + printed);
    Ok(executed.stats)
}

/// After a run failed with `error`: prints the outputs that precede the failing
/// statement (planned and run again on their own), then returns the error of the
/// earliest failing statement.
fn failed_run(
    program: &Compiled,
    exec_options: &ExecOptions,
    mut error: ExecError,
    out: &mut dyn Write,
) -> DriverError {
    let mut before = program.chunks.outputs.len();
    // The subtasks and plan of the run that failed last (a prefix's), when not the
    // program's own.
    let mut prefix: Option<(SubtaskGraph, Plan<Kernel>)> = None;
    while let ExecError::SubtaskFailed { subtask, .. } = &error {
        let failed = SubtaskId(subtask.0);
        let subtasks = prefix.as_ref().map_or(&program.subtasks, |(s, _)| s);
        let first = failure::first_failed_output(&program.chunks, subtasks, failed);
        if first == 0 || first >= before {
            break;
        }
        before = first;
        let Ok((prefix_subtasks, prefix_plan)) =
            failure::plan_prefix(&program.chunks, before, &program.options)
        else {
            break;
        };
        if crate::plan::mapped::map_loaded_files(&prefix_plan, &program.tileables).is_err() {
            break;
        }
        match execute(&prefix_plan, exec_options, &mut NoObserver) {
            Ok(executed) => {
                let results: output::Results = executed.results.into_iter().collect();
                // The run's own error is what the user needs; a failed write adds nothing.
                let _ = output::write_prints(&program.chunks, &results, before, out);
                break;
            }
            Err(ExecError::Cancelled) => {
                failure::remove_partial_saves(&prefix_plan);
                return interrupted();
            }
            Err(earlier) => {
                failure::remove_partial_saves(&prefix_plan);
                error = earlier;
                prefix = Some((prefix_subtasks, prefix_plan));
            }
        }
    }
    let plan = prefix.as_ref().map_or(&program.plan, |(_, p)| p);
    match failure::failure_diagnostic(&error, plan, &program.tileables) {
        Ok(diagnostic) => DriverError::RunFailed(Box::new(diagnostic)),
        Err(message) => DriverError::Runtime(message),
    }
}

/// The message of a run stopped by its cancel flag (Ctrl-C).
pub const INTERRUPTED: &str = "interrupted";

/// Whether the run's cancel flag is up.
pub fn is_cancelled(options: &RunOptions) -> bool {
    options
        .cancel
        .as_ref()
        .is_some_and(|flag| flag.load(Ordering::SeqCst))
}

fn interrupted() -> DriverError {
    DriverError::Runtime(INTERRUPTED.to_string())
}

fn write_trace(
    program: &Compiled,
    trace: &TraceRecorder,
    path: &PathBuf,
) -> Result<(), DriverError> {
    let file = std::fs::File::create(path).map_err(|error| {
        DriverError::Runtime(format!(
            "cannot write the trace '{}': {error}",
            path.display()
        ))
    })?;
    let name = |span: &SubtaskSpan| {
        let kernel = program
            .plan
            .subtasks
            .get(span.subtask.index())
            .and_then(|subtask| subtask.ops.last())
            .map_or("subtask", |op| op.kernel.name());
        format!("{kernel} %{}", span.label)
    };
    write_chrome_trace_with(file, trace.workers(), trace.spans(), name).map_err(|error| {
        DriverError::Runtime(format!(
            "cannot write the trace '{}': {error}",
            path.display()
        ))
    })
}
