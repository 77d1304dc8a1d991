//! Renders [`Diagnostic`]s the way rustc does (`error: …`, `--> file:line:col`, the
//! source line, a caret, `= help: …`), with codespan-reporting. A line too long to
//! echo is shown as a window around the caret ([`excerpt`]).

mod excerpt;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use marsc_grammar::Diagnostic;
use std::ops::Range;

/// A script's name and text, which every diagnostic about it points into.
pub struct SourceFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// The diagnostic's label spans, primary first, clamped to the text: spans past the
/// end (an error "at end of file") are clamped so rendering never fails.
fn label_ranges(diagnostic: &Diagnostic, text: &str) -> Vec<Range<usize>> {
    let clamp = |range: Range<usize>| {
        let mut end = range.end.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut start = range.start.min(end);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        start..end
    };
    std::iter::once(diagnostic.span)
        .chain(diagnostic.secondary.iter().map(|(span, _)| *span))
        .map(|span| clamp(span.range()))
        .collect()
}

/// The report of `diagnostic` with its labels at `ranges` (as [`label_ranges`] gives).
fn to_report(diagnostic: &Diagnostic, ranges: &[Range<usize>]) -> Report<()> {
    let mut labels = vec![Label::primary((), ranges[0].clone()).with_message(&diagnostic.label)];
    for ((_, text), range) in diagnostic.secondary.iter().zip(&ranges[1..]) {
        labels.push(Label::secondary((), range.clone()).with_message(text));
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
        let ranges = label_ranges(diagnostic, source.text);
        // Rendering into memory or a terminal only fails on I/O errors, which there is
        // no better place to report than the stream that just failed.
        let _ = if excerpt::touches_long_line(&file, &ranges) {
            let (excerpt, moved) = excerpt::Excerpt::new(&file, &ranges);
            term::emit(writer, &config, &excerpt, &to_report(diagnostic, &moved))
        } else {
            term::emit(writer, &config, &file, &to_report(diagnostic, &ranges))
        };
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
    // Rendered into memory, then written at once: the renderer writes a source line a
    // character at a time, which on an unbuffered stream was one system call per
    // character (a 10 MB line took 29 s).
    let stderr = termcolor::BufferWriter::stderr(choice);
    let mut buffer = stderr.buffer();
    emit_all(&mut buffer, source, diagnostics);
    // Nowhere better to report a failed write to stderr.
    let _ = stderr.print(&buffer);
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
    fn a_long_line_is_shown_as_a_window_around_the_caret() {
        // 1 MB of `1 + ` on line 2, then an unknown name.
        let long = "1 + ".repeat(250_000);
        let text = format!("x = 1\ny = {long}nope + 2\nz = 3\n");
        let at = text.find("nope").unwrap();
        let source = SourceFile {
            name: "long.mt",
            text: &text,
        };
        let diagnostic =
            Diagnostic::error("cannot find `nope` in this scope", Span::new(at, at + 4))
                .with_label("not found")
                .with_secondary(Span::new(0, 1), "an earlier line");
        let rendered = render_plain(&source, &[diagnostic]);
        assert!(rendered.len() < 1000, "{} bytes echoed", rendered.len());
        // The real line and column (in characters), not the excerpt's.
        assert!(rendered.contains("--> long.mt:2:1000005"), "{rendered}");
        assert!(rendered.contains("...1 + 1 + "), "{rendered}");
        assert!(rendered.contains("nope + 2"), "{rendered}");
        assert!(rendered.contains("^^^^ not found"), "{rendered}");
        assert!(rendered.contains("1 | x = 1"), "{rendered}");
        assert!(rendered.contains("2 | ..."), "{rendered}");
    }

    #[test]
    fn a_cut_line_keeps_character_columns_and_boundaries() {
        let long = "é".repeat(400);
        let text = format!("{long}?{long}\n");
        let at = text.find('?').unwrap();
        let source = SourceFile {
            name: "u.mt",
            text: &text,
        };
        let rendered = render_plain(&source, &[Diagnostic::error("bad", Span::new(at, at + 1))]);
        assert!(rendered.contains("--> u.mt:1:401"), "{rendered}");
        assert!(rendered.contains("...éé"), "{rendered}");
        assert!(rendered.contains("?éé"), "{rendered}");
        assert!(rendered.lines().count() < 10, "{rendered}");
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
