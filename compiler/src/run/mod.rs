//! Running a compiled program: executes its plan on the multi-worker runtime, then
//! prints the outputs in program order exactly as NumPy would (saves happen in the
//! plan itself, through their save steps). Everything is computed before anything is
//! printed. A run that fails prints, as Python would, the outputs that precede the
//! failing statement (run again on their own, see [`failure`]), then the error,
//! which names the source expression whose chunk failed.

pub mod active;
pub mod cancel;
pub mod execute;
pub mod failure;
pub mod options;
pub mod output;
pub mod preflight;
pub mod stats;

pub use cancel::CancelToken;
pub use options::{Progress, ProgressFactory, Ranks, RunOptions};
pub use stats::RunStats;

use crate::driver::Compiled;
use crate::error::JobError;
use crate::subtask::SubtaskGraph;
use execute::{execute_plan, PlanFailure};
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::exec::{ChunkKernel, ExecError, ExecStats};
use marsc_runtime::plan::Plan;
use output::PrintSink;
use std::sync::Arc;

/// Runs `program`, handing what it prints to `out`; returns the executor's figures.
pub fn run_program(
    program: &Compiled,
    options: &RunOptions,
    out: &mut dyn PrintSink,
) -> Result<ExecStats, JobError> {
    let outcome = execute_plan(&program.plan, &program.chunks, &program.tileables, options);
    let mut executed = match outcome {
        Ok(executed) => executed,
        Err(PlanFailure::Refused(error)) => return Err(error),
        Err(PlanFailure::Failed(ExecError::Cancelled)) => return Err(JobError::Cancelled),
        Err(PlanFailure::Failed(error)) => return Err(failed_run(program, options, error, out)),
    };
    let results: output::Results = executed.results.into_iter().collect();
    let count = program.chunks.outputs.len();
    let printed = output::write_prints(&program.chunks, &results, count, out)?;
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
    options: &RunOptions,
    mut error: ExecError,
    out: &mut dyn PrintSink,
) -> JobError {
    // The prefix runs quietly: the run's own progress bar and trace are done.
    let quiet = RunOptions {
        progress: None,
        trace: None,
        ..options.clone()
    };
    let mut before = program.chunks.outputs.len();
    // The subtasks and plan of the run that failed last (a prefix's), when not the
    // program's own.
    let mut prefix: Option<(SubtaskGraph, Arc<Plan<Kernel>>)> = None;
    while let ExecError::SubtaskFailed { subtask, .. } = &error {
        let failed = *subtask;
        let subtasks = prefix.as_ref().map_or(&program.subtasks, |(s, _)| s);
        let first = failure::first_failed_output(&program.chunks, subtasks, failed);
        let first = failure::statement_start(&program.tileables, first);
        if first == 0 || first >= before {
            break;
        }
        before = first;
        let Ok((prefix_subtasks, prefix_plan)) =
            failure::plan_prefix(&program.chunks, before, &program.options)
        else {
            break;
        };
        let prefix_plan = Arc::new(prefix_plan);
        match execute_plan(&prefix_plan, &program.chunks, &program.tileables, &quiet) {
            Ok(executed) => {
                let results: output::Results = executed.results.into_iter().collect();
                // The run's own error is what the user needs; a failed write adds nothing.
                let _ = output::write_prints(&program.chunks, &results, before, out);
                break;
            }
            Err(PlanFailure::Failed(ExecError::Cancelled)) => return JobError::Cancelled,
            Err(PlanFailure::Refused(_)) => break,
            Err(PlanFailure::Failed(earlier)) => {
                error = earlier;
                prefix = Some((prefix_subtasks, prefix_plan));
            }
        }
    }
    let plan = prefix.as_ref().map_or(&program.plan, |(_, p)| p);
    failure::failure_error(&error, plan, &program.tileables)
}
