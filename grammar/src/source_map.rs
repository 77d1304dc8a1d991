//! Byte offsets to human positions: 1-based lines and 1-based columns counted in
//! characters, as editors and the `--> file:line:col` of diagnostics show them.

use crate::span::Span;

/// The start offset of every line of one source text, for fast offset lookups.
#[derive(Clone, Debug)]
pub struct LineIndex<'src> {
    source: &'src str,
    line_starts: Vec<usize>,
}

impl<'src> LineIndex<'src> {
    pub fn new(source: &'src str) -> LineIndex<'src> {
        // Lines end with LF, CRLF or a lone CR, as the lexer reads them.
        let bytes = source.as_bytes();
        let ends_line = |at: usize| match bytes[at] {
            b'\n' => true,
            b'\r' => bytes.get(at + 1) != Some(&b'\n'),
            _ => false,
        };
        let line_starts = std::iter::once(0)
            .chain(
                (0..bytes.len())
                    .filter(|&at| ends_line(at))
                    .map(|at| at + 1),
            )
            .collect();
        LineIndex {
            source,
            line_starts,
        }
    }

    /// The 1-based line and character column of a byte offset. Offsets past the end
    /// are clamped to it; offsets inside a character count as that character.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.source.len());
        while !self.source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let mut line_start = self.line_starts[line - 1];
        // A byte-order mark is invisible in editors; columns start after it.
        if line == 1 && self.source.starts_with('\u{feff}') && offset >= 3 {
            line_start = 3;
        }
        let column = self.source[line_start..offset].chars().count() + 1;
        (line, column)
    }

    /// `line:col-line:col` for a span; the end is the position just past its last
    /// character.
    pub fn format_span(&self, span: Span) -> String {
        let (start_line, start_col) = self.line_col(span.start as usize);
        let (end_line, end_col) = self.line_col(span.end as usize);
        format!("{start_line}:{start_col}-{end_line}:{end_col}")
    }

    /// How many lines the text has (a final line without a newline counts).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_character_columns() {
        let index = LineIndex::new("ab\nσx\n\nz");
        assert_eq!(index.line_col(0), (1, 1));
        assert_eq!(index.line_col(2), (1, 3));
        assert_eq!(index.line_col(3), (2, 1));
        // `σ` is two bytes but one column.
        assert_eq!(index.line_col(5), (2, 2));
        assert_eq!(index.line_col(4), (2, 1));
        assert_eq!(index.line_col(7), (3, 1));
        assert_eq!(index.line_col(8), (4, 1));
        assert_eq!(index.line_col(100), (4, 2));
        assert_eq!(index.line_count(), 4);
        assert_eq!(index.format_span(Span::new(3, 6)), "2:1-2:3");
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        let index = LineIndex::new("a\rb\r\nc\nd");
        assert_eq!(index.line_col(2), (2, 1));
        assert_eq!(index.line_col(5), (3, 1));
        assert_eq!(index.line_col(7), (4, 1));
        assert_eq!(index.line_count(), 4);
    }

    #[test]
    fn byte_order_mark_takes_no_column() {
        let index = LineIndex::new("\u{feff}x = 1\ny");
        assert_eq!(index.line_col(3), (1, 1));
        assert_eq!(index.line_col(4), (1, 2));
        assert_eq!(index.line_col(9), (2, 1));
    }

    #[test]
    fn empty_source() {
        let index = LineIndex::new("");
        assert_eq!(index.line_col(0), (1, 1));
        assert_eq!(index.line_col(5), (1, 1));
    }
}
