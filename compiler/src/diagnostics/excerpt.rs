//! Source lines too long to echo whole. A diagnostic on a line of 10 MB must not
//! print the line (twice, once per label row): such a diagnostic is rendered against
//! an [`Excerpt`], a small text holding only its labels' lines, each line longer
//! than [`LONG_LINE`] cut to a window of [`WINDOW`] characters around its first
//! label with `...` where it was cut. Line and column numbers stay those of the real
//! source (the excerpt maps them back), so `--> file:line:col` does not change.
//! Labels are clipped to the line they start on (a span running on for megabytes
//! is shown as reaching the end of the window).

use codespan_reporting::files::{Error, Files, SimpleFile};
use std::ops::Range;

/// Lines longer than this many bytes are cut.
pub const LONG_LINE: usize = 240;
/// Characters shown of a cut line, the first label's start among the first
/// [`BEFORE`] of them when the line has that many before it.
pub const WINDOW: usize = 160;
const BEFORE: usize = 60;
const CUT: &str = "...";

/// One line of the excerpt.
struct ExcerptLine {
    /// Its bytes in the excerpt's text, newline included.
    range: Range<usize>,
    /// 1-based, in the real source; 0 for a filler line standing for a gap.
    number: usize,
    /// The window of the real line this shows, in the source.
    window: Range<usize>,
    /// Bytes of `...` before the window in the excerpt.
    prefix: usize,
    /// The real 1-based column of the window's first character.
    first_column: usize,
}

/// The labels' lines of one diagnostic, long ones cut (see the module doc).
pub struct Excerpt<'a> {
    name: &'a str,
    text: String,
    lines: Vec<ExcerptLine>,
}

/// Whether one of `spans` starts or ends on a line longer than [`LONG_LINE`].
pub fn touches_long_line(file: &SimpleFile<&str, &str>, spans: &[Range<usize>]) -> bool {
    spans.iter().any(|span| {
        [span.start, span.end].into_iter().any(|at| {
            file.line_index((), at)
                .and_then(|line| file.line_range((), line))
                .is_ok_and(|range| range.len() > LONG_LINE)
        })
    })
}

impl<'a> Excerpt<'a> {
    /// The excerpt of `file` for labels at `spans` (already within the source), and
    /// each span moved into it.
    pub fn new(
        file: &SimpleFile<&'a str, &'a str>,
        spans: &[Range<usize>],
    ) -> (Excerpt<'a>, Vec<Range<usize>>) {
        let source: &str = file.source();
        // (line index, line range without its newline, where its first label starts)
        let mut shown: Vec<(usize, Range<usize>, usize)> = Vec::new();
        for span in spans {
            let line = file.line_index((), span.start).unwrap_or(0);
            let range = file.line_range((), line).unwrap_or(0..0);
            let range = range.start..trim_newline(source, range);
            match shown.iter_mut().find(|(index, _, _)| *index == line) {
                Some((_, _, first)) => *first = (*first).min(span.start),
                None => shown.push((line, range, span.start)),
            }
        }
        shown.sort_by_key(|(line, _, _)| *line);
        let mut excerpt = Excerpt {
            name: file.name(),
            text: String::new(),
            lines: Vec::new(),
        };
        let mut previous: Option<usize> = None;
        for (line, range, first) in shown {
            // Two filler lines for a gap make the renderer draw its `·` break.
            if previous.is_some_and(|p| line > p + 1) {
                for _ in 0..2 {
                    excerpt.push_filler();
                }
            }
            previous = Some(line);
            excerpt.push_line(source, line + 1, range, first);
        }
        let moved = spans
            .iter()
            .map(|span| {
                let index = excerpt.line_of_source(span.start);
                let line = &excerpt.lines[index];
                let start = line.to_excerpt(span.start);
                // Clipped to the line it starts on.
                let end = line.to_excerpt(span.end.max(span.start)).max(start);
                start..end
            })
            .collect();
        (excerpt, moved)
    }

    fn push_filler(&mut self) {
        let at = self.text.len();
        self.text.push('\n');
        self.lines.push(ExcerptLine {
            range: at..at + 1,
            number: 0,
            window: 0..0,
            prefix: 0,
            first_column: 1,
        });
    }

    fn push_line(&mut self, source: &str, number: usize, range: Range<usize>, first: usize) {
        let line = &source[range.clone()];
        let window = if line.len() <= LONG_LINE {
            range.clone()
        } else {
            let start = back_chars(source, range.start, first, BEFORE);
            start..forward_chars(source, start, range.end, WINDOW)
        };
        let at = self.text.len();
        let prefix = if window.start > range.start {
            CUT.len()
        } else {
            0
        };
        if prefix > 0 {
            self.text.push_str(CUT);
        }
        self.text.push_str(&source[window.clone()]);
        if window.end < range.end {
            self.text.push_str(CUT);
        }
        self.text.push('\n');
        let before = &source[range.start..window.start];
        let first_column = if before.is_ascii() {
            before.len()
        } else {
            before.chars().count()
        } + 1;
        self.lines.push(ExcerptLine {
            range: at..self.text.len(),
            number,
            window,
            prefix,
            first_column,
        });
    }

    /// The excerpt line showing source offset `at` (the lines are in source order).
    fn line_of_source(&self, at: usize) -> usize {
        self.lines
            .iter()
            .position(|line| line.number > 0 && line.window.start <= at && at <= line.window.end)
            .or_else(|| {
                // Outside every window: the last real line starting at or before it.
                self.lines
                    .iter()
                    .rposition(|line| line.number > 0 && line.window.start <= at)
            })
            .unwrap_or(0)
    }
}

impl ExcerptLine {
    /// A source offset moved into the excerpt, clamped to the window.
    fn to_excerpt(&self, at: usize) -> usize {
        let at = at.clamp(self.window.start, self.window.end);
        self.range.start + self.prefix + (at - self.window.start)
    }
}

/// The offset `count` characters before `from` (not before `floor`).
fn back_chars(source: &str, floor: usize, from: usize, count: usize) -> usize {
    source[floor..from]
        .char_indices()
        .rev()
        .nth(count.saturating_sub(1))
        .map_or(floor, |(at, _)| floor + at)
}

/// The offset `count` characters after `from` (not after `ceiling`).
fn forward_chars(source: &str, from: usize, ceiling: usize, count: usize) -> usize {
    source[from..ceiling]
        .char_indices()
        .nth(count)
        .map_or(ceiling, |(at, _)| from + at)
}

fn trim_newline(source: &str, range: Range<usize>) -> usize {
    let line = &source[range.clone()];
    range.start + line.trim_end_matches(['\n', '\r']).len()
}

impl<'a> Files<'a> for Excerpt<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, Error> {
        Ok(self
            .lines
            .partition_point(|line| line.range.start <= byte_index)
            .saturating_sub(1))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, Error> {
        self.lines
            .get(line_index)
            .map(|line| line.number)
            .ok_or(Error::LineTooLarge {
                given: line_index,
                max: self.lines.len().saturating_sub(1),
            })
    }

    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, Error> {
        let Some(line) = self.lines.get(line_index) else {
            return Ok(1);
        };
        let shown = line.range.start + line.prefix;
        let end = byte_index.clamp(shown, line.range.end.max(shown));
        let within = self
            .text
            .get(shown..end)
            .map_or(0, |text| text.chars().count());
        Ok(line.first_column + within)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, Error> {
        self.lines
            .get(line_index)
            .map(|line| line.range.clone())
            .ok_or(Error::LineTooLarge {
                given: line_index,
                max: self.lines.len().saturating_sub(1),
            })
    }
}
