//! Nested-bracket layout of an n-d array (NumPy's `_formatArray`): rows wrapped at
//! the line width, newlines (and blank lines) between sub-arrays, `...` in place of
//! the middle of long axes when the array is summarized.

use std::ops::Range;

/// NumPy's default `edgeitems`: elements kept at each end of a summarized axis.
pub(crate) const EDGE_ITEMS: usize = 3;
/// NumPy's default `threshold`: arrays with more elements are summarized.
pub(crate) const THRESHOLD: usize = 1000;
/// NumPy's default `linewidth`.
pub(crate) const LINE_WIDTH: usize = 75;

const SUMMARY: &str = "...";

/// Whether NumPy summarizes an array of `shape`: more than [`THRESHOLD`] elements
/// (counted without overflow, so a shape of any size can be asked about).
pub fn is_summarized(shape: &[usize]) -> bool {
    let mut size: usize = 1;
    for &len in shape {
        size = size.saturating_mul(len);
    }
    size > THRESHOLD
}

/// The index ranges of one axis of length `len` that are printed, in order: the
/// first and last [`EDGE_ITEMS`] when the array is summarized and the axis is
/// longer than both together, else the whole axis.
pub fn shown_ranges(len: usize, summarize: bool) -> Vec<Range<usize>> {
    if summarize && len > 2 * EDGE_ITEMS {
        vec![0..EDGE_ITEMS, len - EDGE_ITEMS..len]
    } else {
        std::iter::once(0..len).collect()
    }
}

/// The shape of the printed corners of an array of `shape` (every elided axis cut
/// to `2 * EDGE_ITEMS`), or `None` when printing it elides nothing.
pub fn summary_shape(shape: &[usize]) -> Option<Vec<usize>> {
    let summarize = is_summarized(shape);
    let corners: Vec<usize> = shape
        .iter()
        .map(|&len| shown_ranges(len, summarize).iter().map(Range::len).sum())
        .collect();
    (corners != shape).then_some(corners)
}

/// Where the element at `index` of the whole array of `shape` sits in its corners
/// (only printed positions are asked for).
pub(crate) fn corner_index(shape: &[usize], corners: &[usize], index: &[usize]) -> Vec<usize> {
    index
        .iter()
        .zip(shape.iter().zip(corners))
        .map(|(&i, (&len, &kept))| {
            // An elided axis keeps `kept / 2` positions at each end.
            if len != kept && i >= kept / 2 {
                i - (len - kept)
            } else {
                i
            }
        })
        .collect()
}

/// Lays out the elements of a non-empty array of `shape`; `word` renders the element
/// at a multi-index. `line_width` is the usable width and `indent` the text that
/// starts continuation lines (one space per bracket already open, plus the prefix).
pub(crate) struct NestedLayout<'a> {
    pub shape: &'a [usize],
    pub separator: &'a str,
    pub summarize: bool,
    pub line_width: usize,
    pub indent: usize,
    pub word: &'a dyn Fn(&[usize]) -> String,
}

impl NestedLayout<'_> {
    pub(crate) fn render(&self) -> String {
        let mut index = Vec::with_capacity(self.shape.len());
        let hanging_indent = " ".repeat(self.indent);
        self.recurse(&mut index, &hanging_indent, self.line_width as isize)
    }

    fn recurse(&self, index: &mut Vec<usize>, hanging_indent: &str, width: isize) -> String {
        let axis = index.len();
        if axis == self.shape.len() {
            return (self.word)(index);
        }
        let next_indent = format!("{hanging_indent} ");
        let next_width = width - 1;
        let len = self.shape[axis];
        let show_summary = self.summarize && 2 * EDGE_ITEMS < len;
        let (leading, trailing) = if show_summary {
            (EDGE_ITEMS, EDGE_ITEMS)
        } else {
            (0, len)
        };
        // Indices printed before and after the `...`, in order.
        let before: Vec<usize> = (0..leading).collect();
        let after: Vec<usize> = (len - trailing..len).collect();
        let mut nested = |i: usize| {
            index.push(i);
            let text = self.recurse(index, &next_indent, next_width);
            index.pop();
            text
        };

        let mut s = String::new();
        if axis + 1 == self.shape.len() {
            let separator_width = self.separator.trim_end().len().max(1) as isize;
            let element_width = width - separator_width;
            let mut line = hanging_indent.to_string();
            for &i in &before {
                extend_line(&mut s, &mut line, &nested(i), element_width, hanging_indent);
                line.push_str(self.separator);
            }
            if show_summary {
                extend_line(&mut s, &mut line, SUMMARY, element_width, hanging_indent);
                line.push_str(self.separator);
            }
            for (k, &i) in after.iter().enumerate() {
                extend_line(&mut s, &mut line, &nested(i), element_width, hanging_indent);
                if k + 1 < after.len() {
                    line.push_str(self.separator);
                }
            }
            s.push_str(&line);
        } else {
            let axes_left = self.shape.len() - axis;
            let line_separator = format!(
                "{}{}",
                self.separator.trim_end(),
                "\n".repeat(axes_left - 1)
            );
            for &i in &before {
                s.push_str(hanging_indent);
                s.push_str(&nested(i));
                s.push_str(&line_separator);
            }
            if show_summary {
                s.push_str(hanging_indent);
                s.push_str(SUMMARY);
                s.push_str(&line_separator);
            }
            for (k, &i) in after.iter().enumerate() {
                s.push_str(hanging_indent);
                s.push_str(&nested(i));
                if k + 1 < after.len() {
                    s.push_str(&line_separator);
                }
            }
        }
        format!("[{}]", &s[hanging_indent.len()..])
    }
}

/// NumPy's `_extendLine`: wrap before `word` if it would pass `width`, unless the
/// line holds nothing but its indent (wrapping would not help).
fn extend_line(s: &mut String, line: &mut String, word: &str, width: isize, indent: &str) {
    let too_long = (line.len() + word.len()) as isize > width;
    if too_long && line.len() > indent.len() {
        s.push_str(line.trim_end());
        s.push('\n');
        line.clear();
        line.push_str(indent);
    }
    line.push_str(word);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarized_axes_keep_their_edges() {
        assert_eq!(shown_ranges(7, true), [0..3, 4..7]);
        assert_eq!(shown_ranges(6, true), vec![(0..6)]);
        assert_eq!(shown_ranges(7, false), vec![(0..7)]);
        assert_eq!(summary_shape(&[1000]), None);
        assert_eq!(summary_shape(&[1001]), Some(vec![6]));
        assert_eq!(summary_shape(&[6, 6, 6, 6]), None);
        assert_eq!(summary_shape(&[2, 501]), Some(vec![2, 6]));
        assert_eq!(summary_shape(&[usize::MAX, 7]), Some(vec![6, 6]));
        assert_eq!(corner_index(&[2, 501], &[2, 6], &[1, 499]), [1, 4]);
        assert_eq!(corner_index(&[7, 2], &[6, 2], &[4, 1]), [3, 1]);
    }

    #[test]
    fn blank_line_between_blocks() {
        let word = |index: &[usize]| index.iter().map(|i| i.to_string()).collect::<String>();
        let layout = NestedLayout {
            shape: &[2, 1, 2],
            separator: " ",
            summarize: false,
            line_width: LINE_WIDTH,
            indent: 1,
            word: &word,
        };
        assert_eq!(layout.render(), "[[[000 001]]\n\n [[100 101]]]");
    }
}
