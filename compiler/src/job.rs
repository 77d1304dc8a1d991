//! The job API: what every front-end (the CLI, the REPL, tests, the server to come)
//! uses to compile and run a script. A job is a script with its [`Options`] and
//! [`RunOptions`]; the run options carry the job's own [`CancelToken`], so
//! cancelling one job touches no other, and nothing of a run is process-wide (the
//! allocator's prompt release under a memory limit is claimed per job, see
//! [`marsc_runtime::huge_alloc::release_promptly`]). Several jobs may run at once in
//! one process, each with its own workers and figures. Errors are typed
//! ([`JobError`]); the front-end renders them, for a terminal or as JSON.

pub use crate::driver::{Compiled, Options};
pub use crate::error::JobError;
pub use crate::run::output::{PrintSink, Printed, PrintedItem, TextSink};
pub use crate::run::{CancelToken, RunOptions, RunStats};

use crate::driver::compile_checked;
use crate::run::run_program;
use std::io::Write;

/// Compiles and runs a script, writing what it prints to `out`.
pub fn run(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
    out: &mut dyn Write,
) -> Result<RunStats, JobError> {
    let compiled = compile_for_run(text, options, run_options)?;
    run_compiled(&compiled, run_options, out)
}

/// Compiles and runs a script, handing each print to `sink` as data.
pub fn run_to(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
    sink: &mut dyn PrintSink,
) -> Result<RunStats, JobError> {
    let compiled = compile_for_run(text, options, run_options)?;
    run_compiled_to(&compiled, run_options, sink)
}

/// Compiles a script for a run with `run_options` (the scheduling passes place
/// subtasks on that run's workers unless `options` names a worker count).
pub fn compile_for_run(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
) -> Result<Compiled, JobError> {
    let scheduled = Options {
        workers: options.workers.or(Some(run_options.workers)),
        ..options.clone()
    };
    compile_checked(text, &scheduled, crate::run::memory::check_saves)
}

/// Runs an already compiled script, writing what it prints to `out` as `print`
/// does (all at once, after the run; a failed run's earlier prints too).
pub fn run_compiled(
    compiled: &Compiled,
    run_options: &RunOptions,
    out: &mut dyn Write,
) -> Result<RunStats, JobError> {
    let mut sink = TextSink::new(out);
    let outcome = run_compiled_to(compiled, run_options, &mut sink);
    let written = sink.finish();
    let stats = outcome?;
    written.map(|()| stats)
}

/// Runs an already compiled script, handing each print to `sink` as data.
pub fn run_compiled_to(
    compiled: &Compiled,
    run_options: &RunOptions,
    sink: &mut dyn PrintSink,
) -> Result<RunStats, JobError> {
    let exec = run_program(compiled, run_options, sink)?;
    Ok(RunStats {
        tileables: compiled.tileables.len() as u64,
        chunks: compiled.chunks.num_chunks() as u64,
        subtasks: compiled.subtasks.len() as u64,
        kernels: compiled.jit.kernels,
        jit_seconds: compiled.jit.jit_seconds,
        compile_seconds: compiled.compile_seconds,
        exec,
    })
}
