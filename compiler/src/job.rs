//! The job API: what every front-end (the CLI, the REPL, tests, the server to come)
//! uses to compile and run a script. A job is a script with its [`Options`] and
//! [`RunOptions`]; the run options carry the job's own [`CancelToken`], so
//! cancelling one job touches no other, and nothing of a run is process-wide (the
//! allocator's prompt release under a memory limit is claimed per job, see
//! [`marsc_runtime::huge_alloc::release_promptly`]). Several jobs may run at once in
//! one process, each with its own workers and figures. Errors are typed
//! ([`JobError`]); the front-end renders them, for a terminal or as JSON.

pub use crate::driver::{Compiled, EmitFormat, Options, Stage};
pub use crate::error::JobError;
pub use crate::run::output::{PrintSink, Printed, PrintedItem, TextSink};
pub use crate::run::{CancelToken, RunOptions, RunStats};

use crate::driver::compile_checked;
use crate::run::run_program;
use crate::session::Session;
use std::io::Write;

/// Compiles and runs a script, writing what it prints to `out`.
pub fn run(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
    out: &mut dyn Write,
) -> Result<RunStats, JobError> {
    let mut sink = TextSink::new(out);
    let outcome = run_to(text, options, run_options, &mut sink);
    let written = sink.finish();
    let stats = outcome?;
    written.map(|()| stats)
}

/// Compiles and runs a script, handing each print to `sink` as data.
pub fn run_to(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
    sink: &mut dyn PrintSink,
) -> Result<RunStats, JobError> {
    match compile_for_run(text, options, run_options) {
        Ok(compiled) => run_compiled_to(&compiled, run_options, sink),
        Err(JobError::NeedsStages(_)) => run_staged_to(text, options, run_options, sink),
        Err(error) => Err(error),
    }
}

/// Runs a script that needs tensor values to go on ([`compile_for_run`] said
/// [`JobError::NeedsStages`]) in stages, as a REPL session runs an input: each
/// value is computed when lowering reaches it, with everything printed before it,
/// and chunks computed by one stage are reused by the next. What it printed goes to
/// `sink` in program order, also when a later stage fails.
pub fn run_staged_to(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
    sink: &mut dyn PrintSink,
) -> Result<RunStats, JobError> {
    let started = std::time::Instant::now();
    let lower_options = crate::session::lower_options(options);
    let mut session = Session::for_script(
        options.clone(),
        &lower_options,
        run_options.clone(),
        &mut *sink,
    );
    let outcome = session.statements_with(text, run_options.cancel.clone());
    let mut stats = session.last_stats().cloned().unwrap_or_default();
    drop(session);
    let shown = match outcome {
        Ok(shown) => shown,
        Err(failure) => {
            for printed in failure.shown {
                sink.print(printed)?;
            }
            return Err(after_stages(failure.error, stats.stages));
        }
    };
    for printed in shown {
        sink.print(printed)?;
    }
    stats.compile_seconds = started.elapsed().as_secs_f64() - stats.exec.run_seconds;
    Ok(stats)
}

/// `--emit`: compiles a script up to `stage` and renders its IR, running nothing.
///
/// A script that needs tensor values to go on (it runs in stages) is dumped stage
/// by stage, each under a heading naming the value it computes; to get there, each
/// stage computes the value its decision needs (only that: no print is shown, no
/// file written), and the last part of the script is compiled, not run.
pub fn emit(
    text: &str,
    stage: Stage,
    format: EmitFormat,
    options: &Options,
    run_options: &RunOptions,
) -> Result<String, JobError> {
    match crate::driver::emit(text, stage, format, options) {
        Err(JobError::NeedsStages(_)) => emit_staged(text, stage, format, options, run_options),
        other => other,
    }
}

fn emit_staged(
    text: &str,
    stage: Stage,
    format: EmitFormat,
    options: &Options,
    run_options: &RunOptions,
) -> Result<String, JobError> {
    let lower_options = crate::session::lower_options(options);
    let mut discarded: Vec<Printed> = Vec::new();
    let mut session = Session::for_script(
        options.clone(),
        &lower_options,
        run_options.clone(),
        &mut discarded,
    );
    session.emit_to(crate::session::StageDumps::new(stage, format, text));
    let outcome = session.statements_with(text, run_options.cancel.clone());
    let dumps = session.take_dumps();
    drop(session);
    outcome.map_err(|failure| failure.error)?;
    let dumps = dumps.ok_or_else(|| JobError::internal("emit", "the stage dumps went missing"))?;
    let head = match (stage, format) {
        (Stage::All, EmitFormat::Text) => {
            let module = crate::driver::parse(text)?;
            format!("after parse\n{}\n", marsc_grammar::dump_ast(&module, text))
        }
        _ => String::new(),
    };
    Ok(head + &dumps.text)
}

/// A staged script's error, saying how far the script got: how many stages had run
/// (and printed what precedes the error) when it was found.
fn after_stages(error: JobError, stages: u64) -> JobError {
    if stages == 0 {
        return error;
    }
    let plural = if stages == 1 { "" } else { "s" };
    match error {
        JobError::Diagnostics(mut diagnostics) => {
            if let Some(first) = diagnostics.first_mut() {
                add_note(
                    first,
                    format!(
                        "found after {stages} stage{plural} of the script ran (what they printed is above)"
                    ),
                );
            }
            JobError::Diagnostics(diagnostics)
        }
        JobError::RunFailed(mut diagnostic) => {
            add_note(
                &mut diagnostic,
                format!(
                    "in stage {} of the script, after {stages} stage{plural} ran (what they printed is above)",
                    stages + 1
                ),
            );
            JobError::RunFailed(diagnostic)
        }
        other => other,
    }
}

fn add_note(diagnostic: &mut marsc_grammar::Diagnostic, text: String) {
    diagnostic.note = Some(match diagnostic.note.take() {
        Some(note) => format!("{note}\n{text}"),
        None => text,
    });
}

/// Compiles a script for a run with `run_options` (the scheduling passes place
/// subtasks on that run's workers unless `options` names a worker count).
/// A cancel of `run_options.cancel` while it compiles ends it between two passes.
pub fn compile_for_run(
    text: &str,
    options: &Options,
    run_options: &RunOptions,
) -> Result<Compiled, JobError> {
    let scheduled = Options {
        workers: options.workers.or(Some(run_options.workers)),
        ..options.clone()
    };
    compile_checked(
        text,
        &scheduled,
        crate::run::preflight::check_saves,
        &|| run_options.cancel.is_cancelled(),
    )
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
        stages: 1,
        exec,
        passes: compiled.passes.clone(),
    })
}
