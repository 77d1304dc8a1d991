//! The one diagnostic type every stage of marsc reports user errors with.
//!
//! It is plain data; rendering (rustc-style, with codespan-reporting) happens in the
//! compiler crate, so the grammar stays free of presentation concerns.

use crate::span::Span;

/// A user-facing error with a primary location, optional secondary labels and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline, rendered as `error: {message}`. Lower case, no trailing period.
    pub message: String,
    /// Where the caret goes.
    pub span: Span,
    /// Short text printed beside the caret (may be empty).
    pub label: String,
    /// Other places worth showing, each with its own short text.
    pub secondary: Vec<(Span, String)>,
    /// Rendered as `= help: ...`.
    pub help: Option<String>,
    /// Rendered as `= note: ...`.
    pub note: Option<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            label: String::new(),
            secondary: Vec::new(),
            help: None,
            note: None,
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }
}
