//! Why a REPL input failed, as a type: the [`JobError`] (the same kinds as a
//! script's), with the text its spans point into. Spans that fall inside the input
//! are moved into the input's own text, so a diagnostic shows the line as typed
//! (line 1 of the input) rather than its place in the whole session; one pointing at
//! an earlier input is shown against the session's text. A front-end renders it for
//! a terminal ([`InputError::render`]) or as JSON ([`InputError::to_json`]).

use super::SOURCE_NAME;
use crate::diagnostics::{render_plain, SourceFile};
use crate::error::JobError;
use crate::run::output::Printed;
use marsc_grammar::{Diagnostic, Span};
use serde_json::Value;
use std::fmt;

/// A failed input: what went wrong, and the text its diagnostics point into.
#[derive(Debug)]
pub struct InputError {
    pub error: JobError,
    /// The input's own text, or the session's when a span points before the input.
    pub text: String,
    /// What the input printed before it failed (the stages that ran, in order):
    /// shown before the error, as a script's earlier prints are.
    pub shown: Vec<Printed>,
}

impl InputError {
    /// An error no source location explains.
    pub fn unlocated(error: JobError) -> InputError {
        InputError {
            error,
            text: String::new(),
            shown: Vec::new(),
        }
    }

    /// `error`, whose spans point into `session_text`, placed in the input that
    /// starts at `offset` there when every span falls inside it.
    pub fn in_input(session_text: &str, offset: usize, error: JobError) -> InputError {
        let diagnostics: &[Diagnostic] = match &error {
            JobError::Diagnostics(diagnostics) => diagnostics,
            JobError::RunFailed(diagnostic) => std::slice::from_ref(diagnostic.as_ref()),
            _ => return InputError::unlocated(error),
        };
        let before_input = |span: Span| (span.start as usize) < offset;
        if diagnostics
            .iter()
            .any(|diagnostic| before_input(diagnostic.span))
            || offset > session_text.len()
        {
            return InputError {
                error,
                text: session_text.to_string(),
                shown: Vec::new(),
            };
        }
        let shift = |diagnostic: &Diagnostic| shifted(diagnostic, offset);
        let error = match error {
            JobError::Diagnostics(diagnostics) => {
                JobError::Diagnostics(diagnostics.iter().map(shift).collect())
            }
            JobError::RunFailed(diagnostic) => JobError::RunFailed(Box::new(shift(&diagnostic))),
            other => other,
        };
        InputError {
            error,
            text: session_text[offset..].to_string(),
            shown: Vec::new(),
        }
    }

    /// The error, after `shown`: what the input printed before it failed.
    pub fn with_shown(mut self, shown: Vec<Printed>) -> InputError {
        self.shown = shown;
        self
    }

    /// The error, with `earlier` printed before what it already shows.
    pub fn after(mut self, earlier: Vec<Printed>) -> InputError {
        self.shown.splice(0..0, earlier);
        self
    }

    fn source(&self) -> SourceFile<'_> {
        SourceFile {
            name: SOURCE_NAME,
            text: &self.text,
        }
    }

    /// The error as the REPL shows it on a terminal (without colour): diagnostics
    /// with their source lines, other errors on one line.
    pub fn render(&self) -> String {
        match &self.error {
            JobError::Diagnostics(diagnostics) => render_plain(&self.source(), diagnostics),
            JobError::RunFailed(diagnostic) => {
                render_plain(&self.source(), std::slice::from_ref(diagnostic.as_ref()))
            }
            other => format!("{other}\n"),
        }
    }

    /// The error as JSON, as [`JobError::to_json`] gives it for a script.
    pub fn to_json(&self) -> Value {
        self.error.to_json(&self.source())
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for InputError {}

/// `diagnostic` with its spans moved back by `offset`; a secondary label pointing
/// before the input has no place in it and is dropped.
fn shifted(diagnostic: &Diagnostic, offset: usize) -> Diagnostic {
    let shift = |span: Span| Span::new(span.start as usize - offset, span.end as usize - offset);
    let mut shifted = diagnostic.clone();
    shifted.span = shift(diagnostic.span);
    shifted.secondary = diagnostic
        .secondary
        .iter()
        .filter(|(span, _)| span.start as usize >= offset)
        .map(|(span, label)| (shift(*span), label.clone()))
        .collect();
    shifted
}
