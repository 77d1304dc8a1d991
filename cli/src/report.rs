//! How a job's error reaches the terminal: diagnostics rendered against the script's
//! source, anything else as one line, and the exit status each gets. Shared by the
//! script commands (`cli.rs`) and `marsc simulate`, which sit beside each other.

use marsc::diagnostics::{emit_to_stderr, SourceFile};
use marsc::error::{could_not_compile, JobError};
use std::process::ExitCode;

/// Reports a job's error on stderr as the CLI does; returns the exit status.
pub fn report(name: &str, text: &str, error: JobError) -> ExitCode {
    match error {
        JobError::Diagnostics(diagnostics) => {
            emit_to_stderr(&SourceFile { name, text }, &diagnostics);
            eprintln!("{}", could_not_compile(name, diagnostics.len()));
            ExitCode::from(1)
        }
        JobError::RunFailed(diagnostic) | JobError::NeedsStages(diagnostic) => {
            emit_to_stderr(&SourceFile { name, text }, &[*diagnostic]);
            ExitCode::from(1)
        }
        other => {
            eprintln!("{other}");
            ExitCode::from(other.exit_code())
        }
    }
}
