//! The one place a plan runs, for every front-end: a script's plan, the prefix a
//! failed run plans again, and a REPL input's plan against its cache. It takes the
//! job's [`RunOptions`] (workers, cancel token, memory limit, progress, trace,
//! injected faults), refuses a plan that cannot fit the memory limit before
//! anything runs, maps the loaded files, runs the executor with the observers asked
//! for, and removes partial saves when the run fails or is cancelled.

use super::active;
use super::options::{Progress, RunOptions};
use super::preflight::{check_fits, projected_chunk_bytes};
use crate::chunk::ChunkGraph;
use crate::error::JobError;
use crate::tileable::TileableGraph;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::exec::{
    execute, write_chrome_trace_grouped, ChunkKernel, ExecError, ExecObserver, ExecOptions,
    ExecOutput, SubtaskSpan, TraceRecorder, WorkerMemory,
};
use marsc_runtime::plan::Plan;
use std::path::Path;
use std::sync::Arc;

/// A kernel of a plan the compiler built: a runtime [`Kernel`], or something that
/// stands for one (the REPL's cached values).
pub trait PlannedKernel: ChunkKernel {
    /// The runtime kernel it runs, if any.
    fn kernel(&self) -> Option<&Kernel>;
}

impl PlannedKernel for Kernel {
    fn kernel(&self) -> Option<&Kernel> {
        Some(self)
    }
}

/// Why a plan did not run to the end.
#[derive(Debug)]
pub enum PlanFailure {
    /// Refused before it started (cancelled already, cannot fit the memory limit,
    /// a loaded file that cannot be mapped) or a trace that could not be written.
    Refused(JobError),
    /// The executor stopped (a kernel failed, the job was cancelled, ...).
    Failed(ExecError),
}

impl From<JobError> for PlanFailure {
    fn from(error: JobError) -> PlanFailure {
        PlanFailure::Refused(error)
    }
}

/// The most subtasks, and chunk bytes in all, of a plan run on the caller's thread.
const INLINE_SUBTASKS: usize = 64;
const INLINE_BYTES: u64 = 1 << 20;

/// Whether `plan` is too small to be worth worker threads (a stage of a staged
/// loop over a small tensor): at most [`INLINE_SUBTASKS`] subtasks over at most
/// [`INLINE_BYTES`] of chunks, not traced (a trace shows the workers). The
/// executor itself keeps the workers under a memory limit or injected faults.
fn runs_inline<K>(plan: &Plan<K>, chunks: &ChunkGraph, options: &RunOptions) -> bool {
    options.inline_small
        && options.trace.is_none()
        && plan.subtasks.len() <= INLINE_SUBTASKS
        && chunks.num_chunks() <= 16 * INLINE_SUBTASKS
        && projected_chunk_bytes(chunks).iter().sum::<u64>() <= INLINE_BYTES
}

/// Runs `plan` (over the chunks of `chunks`, whose tileables explain failures) as
/// `options` say.
pub fn execute_plan<K: PlannedKernel>(
    plan: &Arc<Plan<K>>,
    chunks: &ChunkGraph,
    tileables: &TileableGraph,
    options: &RunOptions,
) -> Result<ExecOutput<K::Value>, PlanFailure> {
    // A terminating signal waits for this run to clean up before ending the process.
    let _running = active::running();
    if options.cancel.is_cancelled() {
        return Err(PlanFailure::Refused(JobError::Cancelled));
    }
    let mut exec_options = ExecOptions {
        workers: options.workers.max(1),
        inject_faults: options.inject_faults,
        kill_worker: options.kill_worker,
        cancel: Some(options.cancel.flag()),
        ..ExecOptions::default()
    };
    // Under a memory limit freed chunks go straight back to the system while it runs.
    let _release = options
        .memory_limit
        .map(|_| marsc_runtime::huge_alloc::release_promptly());
    exec_options.inline = runs_inline(plan, chunks, options);
    if let Some(limit) = options.memory_limit {
        let projected = projected_chunk_bytes(chunks);
        check_fits(plan, &projected, limit, tileables)?;
        exec_options.memory_limit = Some(limit);
        exec_options.projected_chunk_bytes = Some(projected);
    }
    let kernels = plan
        .subtasks
        .iter()
        .flat_map(|subtask| subtask.ops.iter())
        .filter_map(|op| op.kernel.kernel());
    crate::plan::mapped::map_files_of(kernels, tileables).map_err(JobError::RunFailed)?;
    let mut observers = Observers {
        progress: options.progress.as_ref().map(|factory| factory.make()),
        trace: options.trace.as_ref().map(|_| TraceRecorder::new()),
    };
    let outcome = match &options.ranks {
        None => execute(plan, &exec_options, &mut observers),
        #[cfg(feature = "mpi")]
        Some(world) => {
            marsc_runtime::exec::mpi::execute(world, plan, &exec_options, &mut observers)
        }
        #[cfg(not(feature = "mpi"))]
        Some(never) => match *never {},
    };
    if let Some(progress) = &mut observers.progress {
        progress.finish();
    }
    if outcome.is_err() {
        remove_partial_saves(plan);
    }
    if let (Some(path), Some(trace)) = (&options.trace, &observers.trace) {
        // Under MPI, one trace process per rank.
        let ranks = options.ranks.as_ref().map(|ranks| ranks.size().max(1));
        let per_process = ranks.map(|ranks| exec_options.workers / ranks);
        write_trace(plan, trace, per_process, path)?;
    }
    outcome.map_err(PlanFailure::Failed)
}

/// Removes the temporary file of every save in the plan, where a failed or
/// cancelled run left one behind.
pub fn remove_partial_saves<K: PlannedKernel>(plan: &Plan<K>) {
    for op in plan.subtasks.iter().flat_map(|subtask| subtask.ops.iter()) {
        if let Some(Kernel::SaveInit(file)) = op.kernel.kernel() {
            // Absent is the normal case (committed, or never started).
            file.remove_temporary();
        }
    }
}

/// The observers a run asked for.
struct Observers {
    progress: Option<Box<dyn Progress>>,
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
            || self
                .progress
                .as_ref()
                .is_some_and(|progress| progress.wants_spans())
    }
    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        if let Some(trace) = &mut self.trace {
            trace.on_subtask_span(span);
        }
        if let Some(progress) = &mut self.progress {
            if progress.wants_spans() {
                progress.on_subtask_span(span);
            }
        }
    }
    fn on_worker_memory(&mut self, memory: &WorkerMemory) {
        if let Some(progress) = &mut self.progress {
            progress.on_worker_memory(memory);
        }
    }
}

fn write_trace<K: PlannedKernel>(
    plan: &Plan<K>,
    trace: &TraceRecorder,
    per_process: Option<u32>,
    path: &Path,
) -> Result<(), JobError> {
    let cannot = |error: &dyn std::fmt::Display| {
        JobError::Io(format!(
            "cannot write the trace '{}': {error}",
            path.display()
        ))
    };
    let file = std::fs::File::create(path).map_err(|error| cannot(&error))?;
    let name = |span: &SubtaskSpan| {
        let kernel = plan
            .subtasks
            .get(span.subtask.index())
            .and_then(|subtask| subtask.ops.last())
            .map_or("subtask", |op| {
                op.kernel.kernel().map_or("cached", Kernel::name)
            });
        format!("{kernel} %{}", span.label)
    };
    write_chrome_trace_grouped(file, trace.workers(), per_process, trace.spans(), name)
        .map_err(|error| cannot(&error))
}
