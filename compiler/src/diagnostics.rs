//! Renders [`Diagnostic`]s the way rustc does (`error: …`, `--> file:line:col`, the
//! source line, a caret, `= help: …`), with codespan-reporting.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use marsc_grammar::Diagnostic;

/// A script's name and text, which every diagnostic about it points into.
pub struct SourceFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

fn to_report(diagnostic: &Diagnostic, text_len: usize) -> Report<()> {
    // Spans past the end (an error "at end of file") are clamped so rendering never fails.
    let clamp = |range: std::ops::Range<usize>| {
        let end = range.end.min(text_len);
        range.start.min(end)..end
    };
    let mut labels =
        vec![Label::primary((), clamp(diagnostic.span.range())).with_message(&diagnostic.label)];
    for (span, text) in &diagnostic.secondary {
        labels.push(Label::secondary((), clamp(span.range())).with_message(text));
    }
    let mut notes = Vec::new();
    if let Some(help) = &diagnostic.help {
        notes.push(format!("help: {help}"));
    }
    if let Some(note) = &diagnostic.note {
        notes.push(format!("note: {note}"));
    }
    Report::error()
        .with_message(&diagnostic.message)
        .with_labels(labels)
        .with_notes(notes)
}

fn emit_all(
    writer: &mut dyn termcolor::WriteColor,
    source: &SourceFile<'_>,
    diagnostics: &[Diagnostic],
) {
    let file = SimpleFile::new(source.name, source.text);
    // ASCII art gives the `--> file:line:col` header the language contract names.
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    for diagnostic in diagnostics {
        // Rendering into memory or a terminal only fails on I/O errors, which there is
        // no better place to report than the stream that just failed.
        let _ = term::emit(
            writer,
            &config,
            &file,
            &to_report(diagnostic, source.text.len()),
        );
    }
}

/// Renders diagnostics as plain text (for snapshot tests and non-terminal output).
pub fn render_plain(source: &SourceFile<'_>, diagnostics: &[Diagnostic]) -> String {
    let mut buffer = termcolor::NoColor::new(Vec::new());
    emit_all(&mut buffer, source, diagnostics);
    String::from_utf8_lossy(&buffer.into_inner()).into_owned()
}

/// Writes diagnostics to stderr, coloured when stderr is a terminal.
pub fn emit_to_stderr(source: &SourceFile<'_>, diagnostics: &[Diagnostic]) {
    use std::io::IsTerminal;
    let choice = if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    };
    let stream = termcolor::StandardStream::stderr(choice);
    let mut lock = stream.lock();
    emit_all(&mut lock, source, diagnostics);
}

#[cfg(test)]
mod tests {
    use super::*;
    use marsc_grammar::Span;

    #[test]
    fn renders_like_rustc() {
        let source = SourceFile {
            name: "demo.mt",
            text: "x = ones(3)\ny = x + z\n",
        };
        let diagnostic = Diagnostic::error("cannot find `z` in this scope", Span::new(20, 21))
            .with_label("not found")
            .with_help("a similar name exists: `x`");
        let text = render_plain(&source, &[diagnostic]);
        assert!(
            text.starts_with("error: cannot find `z` in this scope\n"),
            "{text}"
        );
        assert!(text.contains("--> demo.mt:2:9"), "{text}");
        assert!(text.contains("y = x + z"), "{text}");
        assert!(
            text.contains("= help: a similar name exists: `x`"),
            "{text}"
        );
    }

    #[test]
    fn clamps_spans_past_the_end() {
        let source = SourceFile {
            name: "t.mt",
            text: "x = (",
        };
        let diagnostic = Diagnostic::error("unclosed `(`", Span::new(4, 99));
        assert!(render_plain(&source, &[diagnostic]).contains("t.mt:1:5"));
    }
}
