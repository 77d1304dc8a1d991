//! Why a job stopped, as a type: the bottom layer every pass and front-end shares.
//! A [`JobError`] says what kind of failure it is (the script's errors, a limit,
//! I/O, cancellation, a compiler bug with the pass that found it) and is rendered by
//! the front-end: for a terminal ([`JobError::render`], what `marsc` prints on
//! stderr) or as JSON ([`JobError::to_json`], file, line, column, message, help per
//! error, for the server and tools).

use crate::diagnostics::{render_plain, SourceFile};
use marsc_grammar::Diagnostic;
use serde_json::{json, Value};
use std::fmt;

/// Why a compilation or a run stopped.
#[derive(Debug)]
pub enum JobError {
    /// Errors in the script, with their locations (found before anything ran).
    Diagnostics(Vec<Diagnostic>),
    /// A chunk operation failed while running (an unreadable `.npy` file, an integer
    /// raised to a negative power, a step that cannot fit the memory limit, ...);
    /// the diagnostic points at its expression.
    RunFailed(Box<Diagnostic>),
    /// The script needs a tensor's value to go on (where the diagnostic points):
    /// it runs in stages ([`crate::job::run_staged`]). What cannot run it (`--emit`)
    /// reports this as its error.
    NeedsStages(Box<Diagnostic>),
    /// A stage or feature that does not exist yet.
    NotSupported(String),
    /// A limit the job would pass that no source location explains (too many
    /// chunks, a memory limit).
    Limit(String),
    /// Reading or writing a file the job was asked to (a trace, the output).
    Io(String),
    /// The job's cancel token was set (Ctrl-C, a signal, a client's cancel).
    Cancelled,
    /// A compiler or runtime bug: which pass found it, and what.
    Internal { pass: &'static str, message: String },
}

impl JobError {
    /// An internal error found by `pass`.
    pub fn internal(pass: &'static str, message: impl Into<String>) -> JobError {
        JobError::Internal {
            pass,
            message: message.into(),
        }
    }

    /// The exit status a command-line run reports for it (cancellation's depends on
    /// the signal, which only the front-end knows).
    pub fn exit_code(&self) -> u8 {
        match self {
            JobError::Cancelled => 130,
            _ => 1,
        }
    }

    /// The errors as the terminal shows them (without colour), `source` being the
    /// script the spans point into.
    pub fn render(&self, source: &SourceFile<'_>) -> String {
        match self {
            JobError::Diagnostics(diagnostics) => format!(
                "{}{}\n",
                render_plain(source, diagnostics),
                could_not_compile(source.name, diagnostics.len())
            ),
            JobError::RunFailed(diagnostic) | JobError::NeedsStages(diagnostic) => {
                render_plain(source, std::slice::from_ref(diagnostic))
            }
            other => format!("{other}\n"),
        }
    }

    /// The errors as JSON: `{"kind": ..., "errors": [{"file", "line", "column",
    /// "message", "help", "note"}]}`; line and column count from 1 (columns in
    /// characters), and are null for an error no source location explains.
    pub fn to_json(&self, source: &SourceFile<'_>) -> Value {
        let located = |diagnostic: &Diagnostic| {
            let (line, column) = line_column(source.text, diagnostic.span.start as usize);
            json!({
                "file": source.name,
                "line": line,
                "column": column,
                "message": diagnostic.message,
                "label": diagnostic.label,
                "help": diagnostic.help,
                "note": diagnostic.note,
            })
        };
        let unlocated = |message: String| {
            json!({
                "file": source.name,
                "line": null,
                "column": null,
                "message": message,
                "label": "",
                "help": null,
                "note": null,
            })
        };
        let errors: Vec<Value> = match self {
            JobError::Diagnostics(diagnostics) => diagnostics.iter().map(located).collect(),
            JobError::RunFailed(diagnostic) | JobError::NeedsStages(diagnostic) => {
                vec![located(diagnostic)]
            }
            JobError::NotSupported(what) => vec![unlocated(format!("not supported yet: {what}"))],
            JobError::Limit(message) | JobError::Io(message) => vec![unlocated(message.clone())],
            JobError::Cancelled => vec![unlocated("interrupted".to_string())],
            JobError::Internal { pass, message } => vec![unlocated(format!(
                "internal compiler error in {pass}: {message}"
            ))],
        };
        json!({ "kind": self.kind(), "errors": errors })
    }

    /// A short name of the kind of failure (`"diagnostics"`, `"run_failed"`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            JobError::Diagnostics(_) => "diagnostics",
            JobError::RunFailed(_) => "run_failed",
            JobError::NeedsStages(_) => "needs_stages",
            JobError::NotSupported(_) => "not_supported",
            JobError::Limit(_) => "limit",
            JobError::Io(_) => "io",
            JobError::Cancelled => "cancelled",
            JobError::Internal { .. } => "internal",
        }
    }
}

/// The line that closes a report of `count` compile errors in the script `name`.
pub fn could_not_compile(name: &str, count: usize) -> String {
    format!(
        "error: could not compile `{name}` due to {count} previous error{}",
        if count == 1 { "" } else { "s" }
    )
}

/// One line for the kinds without a source location; the diagnostics' headlines
/// otherwise (their full rendering needs the source: [`JobError::render`]).
impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Diagnostics(diagnostics) => {
                let headlines: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
                write!(f, "error: {}", headlines.join("; "))
            }
            JobError::RunFailed(diagnostic) | JobError::NeedsStages(diagnostic) => {
                write!(f, "error: {}", diagnostic.message)
            }
            JobError::NotSupported(what) => write!(f, "error: not supported yet: {what}"),
            JobError::Limit(message) | JobError::Io(message) => write!(f, "error: {message}"),
            JobError::Cancelled => write!(f, "interrupted"),
            JobError::Internal { pass, message } => {
                write!(f, "error: internal compiler error in {pass}: {message}")
            }
        }
    }
}

impl std::error::Error for JobError {}

/// A value given on the command line or in a request (a size, a rate, a duration)
/// that does not parse; the text says why and how to write one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl From<String> for ParseError {
    fn from(message: String) -> ParseError {
        ParseError(message)
    }
}

/// A compiler or runtime bug found by a pass (an IR it cannot plan, a kernel it
/// cannot build): which pass, and what, naming the entity. At the job level it is
/// [`JobError::Internal`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InternalError {
    pub pass: &'static str,
    pub message: String,
}

impl InternalError {
    pub fn new(pass: &'static str, message: impl Into<String>) -> InternalError {
        InternalError {
            pass,
            message: message.into(),
        }
    }
}

impl fmt::Display for InternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "internal compiler error in {}: {}",
            self.pass, self.message
        )
    }
}

impl std::error::Error for InternalError {}

impl From<InternalError> for JobError {
    fn from(error: InternalError) -> JobError {
        JobError::Internal {
            pass: error.pass,
            message: error.message,
        }
    }
}

/// What is wrong with one entity of an IR, as a rule about it finds it (an op
/// family's check of a node or a chunk); the verifier that asked names the entity
/// ([`Problem`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

impl From<String> for Violation {
    fn from(message: String) -> Violation {
        Violation(message)
    }
}

impl From<&str> for Violation {
    fn from(message: &str) -> Violation {
        Violation(message.to_string())
    }
}

impl From<Violation> for String {
    fn from(violation: Violation) -> String {
        violation.0
    }
}

/// What a verifier found (defined with the runtime, whose plan verifier reports
/// the same way).
pub use marsc_runtime::problems::{Problem, Problems};

/// The 1-based line and character column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use marsc_grammar::Span;

    fn source(text: &str) -> SourceFile<'_> {
        SourceFile { name: "s.mt", text }
    }

    #[test]
    fn json_gives_file_line_column_message_and_help() {
        let text = "x = 1\ny = é + nope\n";
        let start = text.find("nope").expect("in text");
        let error = JobError::Diagnostics(vec![Diagnostic::error(
            "cannot find `nope`",
            Span::new(start, start + 4),
        )
        .with_help("define it first")]);
        let json = error.to_json(&source(text));
        assert_eq!(json["kind"], "diagnostics");
        let first = &json["errors"][0];
        assert_eq!(first["file"], "s.mt");
        assert_eq!(first["line"], 2);
        // Characters, not bytes: `é` is two bytes and one column.
        assert_eq!(first["column"], 9);
        assert_eq!(first["message"], "cannot find `nope`");
        assert_eq!(first["help"], "define it first");
    }

    #[test]
    fn unlocated_errors_have_null_positions_and_their_kind() {
        let json = JobError::Cancelled.to_json(&source(""));
        assert_eq!(json["kind"], "cancelled");
        assert!(json["errors"][0]["line"].is_null());
        let internal = JobError::internal("tile", "boom");
        assert_eq!(
            internal.to_string(),
            "error: internal compiler error in tile: boom"
        );
        assert_eq!(
            JobError::Limit("too many chunks".into()).render(&source("")),
            "error: too many chunks\n"
        );
    }

    #[test]
    fn a_compile_error_renders_as_the_terminal_shows_it() {
        let text = "nope\n";
        let error = JobError::Diagnostics(vec![Diagnostic::error(
            "cannot find `nope`",
            Span::new(0, 4),
        )]);
        let shown = error.render(&source(text));
        assert!(shown.starts_with("error: cannot find `nope`"), "{shown}");
        assert!(shown.ends_with("error: could not compile `s.mt` due to 1 previous error\n"));
    }
}
