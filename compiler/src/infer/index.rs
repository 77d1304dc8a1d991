//! Basic indexing: turns the items written in `x[...]` into one normalized
//! [`IndexItem`] per input axis (plus new axes) and the result's shape. Items are
//! checked left to right, as NumPy does, so the first bad item is the one reported.

use super::{InferError, InferResult};

/// One item of a normalized basic index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexItem {
    /// A single position (already made non-negative and bounds-checked); drops the axis.
    Int(usize),
    /// A Python slice already resolved against the axis length, as `slice.indices`
    /// gives: `start`, `step` and the resulting `len` (`stop` is implied).
    Slice { start: i64, step: i64, len: usize },
    /// `None`: a new axis of length 1.
    NewAxis,
}

/// One item of an index as written, before it is checked against the shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawIndexItem {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    Ellipsis,
}

/// Normalizes `items` against `shape`; returns the items and the output shape.
pub fn normalize_index(
    shape: &[usize],
    items: &[RawIndexItem],
) -> InferResult<(Vec<IndexItem>, Vec<usize>)> {
    let ellipses = items
        .iter()
        .filter(|item| matches!(item, RawIndexItem::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(InferError::new(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    let indexed = items
        .iter()
        .filter(|item| matches!(item, RawIndexItem::Int(_) | RawIndexItem::Slice { .. }))
        .count();
    if indexed > shape.len() {
        return Err(InferError::new(format!(
            "too many indices for array: array is {}-dimensional, but {indexed} were indexed",
            shape.len()
        )));
    }
    // The ellipsis (explicit, or implied after the last item) stands for this many
    // full slices.
    let skipped = shape.len() - indexed;
    let mut out_items = Vec::with_capacity(items.len() + skipped);
    let mut out_shape = Vec::with_capacity(shape.len() + items.len());
    let mut axis = 0;
    let full_axis = |len: usize| IndexItem::Slice {
        start: 0,
        step: 1,
        len,
    };
    for item in items {
        match *item {
            RawIndexItem::Int(position) => {
                out_items.push(IndexItem::Int(resolve_position(
                    position,
                    axis,
                    shape[axis],
                )?));
                axis += 1;
            }
            RawIndexItem::Slice { start, stop, step } => {
                let resolved = resolve_slice(start, stop, step, shape[axis])?;
                out_items.push(resolved);
                if let IndexItem::Slice { len, .. } = resolved {
                    out_shape.push(len);
                }
                axis += 1;
            }
            RawIndexItem::NewAxis => {
                out_items.push(IndexItem::NewAxis);
                out_shape.push(1);
            }
            RawIndexItem::Ellipsis => {
                for &len in &shape[axis..axis + skipped] {
                    out_items.push(full_axis(len));
                    out_shape.push(len);
                }
                axis += skipped;
            }
        }
    }
    for &len in &shape[axis..] {
        out_items.push(full_axis(len));
        out_shape.push(len);
    }
    Ok((out_items, out_shape))
}

fn resolve_position(position: i64, axis: usize, len: usize) -> InferResult<usize> {
    let len_signed = len as i64;
    let resolved = if position < 0 {
        position + len_signed
    } else {
        position
    };
    if (0..len_signed).contains(&resolved) {
        Ok(resolved as usize)
    } else {
        Err(InferError::new(format!(
            "index {position} is out of bounds for axis {axis} with size {len}"
        ))
        .with_help(format!(
            "valid indices for this axis are -{len}..{}",
            len_signed - 1
        )))
    }
}

/// Python's `slice(start, stop, step).indices(len)`, plus the number of elements.
fn resolve_slice(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: usize,
) -> InferResult<IndexItem> {
    // i128 keeps `bound + len` and `-step` exact for every i64 the user can write.
    let step = i128::from(step.unwrap_or(1));
    if step == 0 {
        return Err(InferError::new("slice step cannot be zero"));
    }
    let len = len as i128;
    let (lower, upper) = if step < 0 { (-1, len - 1) } else { (0, len) };
    let clamp = |bound: Option<i64>, default: i128| match bound {
        None => default,
        Some(bound) => {
            let bound = i128::from(bound);
            if bound < 0 {
                (bound + len).max(lower)
            } else {
                bound.min(upper)
            }
        }
    };
    let (start, stop) = if step < 0 {
        (clamp(start, upper), clamp(stop, lower))
    } else {
        (clamp(start, lower), clamp(stop, upper))
    };
    let count = if step < 0 && start > stop {
        (start - stop - 1) / -step + 1
    } else if step > 0 && stop > start {
        (stop - start - 1) / step + 1
    } else {
        0
    };
    // Each value is bounded by the axis length or the user's own i64 step.
    Ok(IndexItem::Slice {
        start: start as i64,
        step: step as i64,
        len: count as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use RawIndexItem::*;

    fn slice(start: Option<i64>, stop: Option<i64>, step: Option<i64>) -> RawIndexItem {
        Slice { start, stop, step }
    }

    fn message(shape: &[usize], items: &[RawIndexItem]) -> String {
        normalize_index(shape, items).unwrap_err().message
    }

    #[test]
    fn slices_resolve_like_python() {
        // (slice, length) -> slice(...).indices(length) and len(range(...)), from Python.
        let cases = [
            ((None, None, None), 5, (0, 1, 5)),
            ((None, None, Some(-1)), 5, (4, -1, 5)),
            ((Some(-2), None, None), 5, (3, 1, 2)),
            ((Some(1), Some(100), Some(2)), 5, (1, 2, 2)),
            ((Some(10), Some(-10), Some(-3)), 5, (4, -3, 2)),
            ((Some(3), Some(1), None), 5, (3, 1, 0)),
            ((None, None, Some(-2)), 0, (-1, -2, 0)),
            ((Some(-100), Some(100), Some(i64::MAX)), 5, (0, i64::MAX, 1)),
            ((None, None, Some(i64::MIN)), 5, (4, i64::MIN, 1)),
        ];
        for ((start, stop, step), len, (want_start, want_step, want_len)) in cases {
            let got = resolve_slice(start, stop, step, len).unwrap();
            assert_eq!(
                got,
                IndexItem::Slice {
                    start: want_start,
                    step: want_step,
                    len: want_len
                },
                "{start:?}:{stop:?}:{step:?} on {len}"
            );
        }
    }

    #[test]
    fn items_and_shape() {
        // a = np.zeros((2, 3)); a[None, 0, None, ..., None].shape == (1, 1, 3, 1)
        let (items, shape) =
            normalize_index(&[2, 3], &[NewAxis, Int(0), NewAxis, Ellipsis, NewAxis]).unwrap();
        assert_eq!(shape, vec![1, 1, 3, 1]);
        assert_eq!(
            items,
            vec![
                IndexItem::NewAxis,
                IndexItem::Int(0),
                IndexItem::NewAxis,
                IndexItem::Slice {
                    start: 0,
                    step: 1,
                    len: 3
                },
                IndexItem::NewAxis,
            ]
        );
        // a[..., 0, None].shape == (2, 1)
        let (items, shape) = normalize_index(&[2, 3], &[Ellipsis, Int(-3), NewAxis]).unwrap();
        assert_eq!(shape, vec![2, 1]);
        assert_eq!(items[1], IndexItem::Int(0));
        // a[1].shape == (3,): the trailing axis becomes a full slice.
        let (items, shape) = normalize_index(&[2, 3], &[Int(1)]).unwrap();
        assert_eq!(shape, vec![3]);
        assert_eq!(items.len(), 2);
        // np.zeros(())[..., None].shape == (1,)
        assert_eq!(
            normalize_index(&[], &[Ellipsis, NewAxis]).unwrap().1,
            vec![1]
        );
        assert_eq!(
            normalize_index(&[3], &[Int(0), Ellipsis]).unwrap().1,
            Vec::<usize>::new()
        );
    }

    #[test]
    fn errors_in_numpys_order_and_words() {
        let full = slice(None, None, Some(0));
        assert_eq!(
            message(&[2, 3], &[Int(5)]),
            "index 5 is out of bounds for axis 0 with size 2"
        );
        assert_eq!(
            message(&[2, 3], &[Int(-3)]),
            "index -3 is out of bounds for axis 0 with size 2"
        );
        assert_eq!(
            message(&[2, 3], &[Int(0), Int(5)]),
            "index 5 is out of bounds for axis 1 with size 3"
        );
        assert_eq!(
            message(&[2, 3], &[Int(0), Int(0), Int(0)]),
            "too many indices for array: array is 2-dimensional, but 3 were indexed"
        );
        assert_eq!(
            message(&[], &[Int(0)]),
            "too many indices for array: array is 0-dimensional, but 1 were indexed"
        );
        assert_eq!(
            message(&[2, 3], &[full, Int(1), Ellipsis, Ellipsis]),
            "an index can only have a single ellipsis ('...')"
        );
        assert_eq!(
            message(&[3], &[Int(7), full]),
            "too many indices for array: array is 1-dimensional, but 2 were indexed"
        );
        assert_eq!(
            message(&[2, 3], &[Int(5), full]),
            "index 5 is out of bounds for axis 0 with size 2"
        );
        assert_eq!(
            message(&[2, 3], &[full, Int(5)]),
            "slice step cannot be zero"
        );
    }
    /// Parses an index written as in Python (`1, ::-1, None, ...`).
    fn parse(text: &str) -> Vec<RawIndexItem> {
        let bound = |part: &str| (!part.is_empty()).then(|| part.parse::<i64>().unwrap());
        text.split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| match part {
                "None" => NewAxis,
                "..." => Ellipsis,
                _ if part.contains(':') => {
                    let parts: Vec<&str> = part.split(':').collect();
                    slice(
                        bound(parts[0]),
                        bound(parts[1]),
                        parts.get(2).and_then(|p| bound(p)),
                    )
                }
                _ => Int(part.parse().unwrap()),
            })
            .collect()
    }

    /// Random cases, with the shape (or error) NumPy 2.4 gives for `np.zeros(shape)[index]`.
    #[test]
    fn output_shapes_match_numpy_table() {
        type Case = (
            &'static [usize],
            &'static str,
            Result<&'static [usize], &'static str>,
        );
        let table: &[Case] = &[
            (&[6, 4, 6], ":-5, -6::, -1:", Ok(&[1, 4, 1])),
            (&[], "", Ok(&[])),
            (&[4], "", Ok(&[4])),
            (&[2, 3, 4], "3:", Ok(&[0, 3, 4])),
            (&[5, 2, 3], "..., None, :1:, 6:", Ok(&[5, 1, 1, 0])),
            (&[0], "4::-2", Ok(&[0])),
            (
                &[0, 2],
                "0, ::1",
                Err("index 0 is out of bounds for axis 0 with size 0"),
            ),
            (
                &[5],
                "2, 5",
                Err("too many indices for array: array is 1-dimensional, but 2 were indexed"),
            ),
            (&[3], "-1::0, ...", Err("slice step cannot be zero")),
            (&[3], "::-3, None", Ok(&[1, 1])),
            (&[0, 0, 0], ":2:", Ok(&[0, 0, 0])),
            (&[6, 4, 1], "-4, ::, -1::", Ok(&[4, 1])),
            (
                &[],
                "5",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (
                &[2, 3, 6],
                "::, ::1, -6, -1",
                Err("too many indices for array: array is 3-dimensional, but 4 were indexed"),
            ),
            (
                &[0],
                "1",
                Err("index 1 is out of bounds for axis 0 with size 0"),
            ),
            (&[5, 5], ":0", Ok(&[0, 5])),
            (
                &[],
                "-2",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[1, 0], "", Ok(&[1, 0])),
            (&[4, 2, 5], "", Ok(&[4, 2, 5])),
            (&[6], "3:", Ok(&[3])),
            (
                &[6, 0, 6],
                "2:, 4, -2",
                Err("index 4 is out of bounds for axis 1 with size 0"),
            ),
            (
                &[5, 2, 3],
                "::-3, 5, 6, 7::",
                Err("too many indices for array: array is 3-dimensional, but 4 were indexed"),
            ),
            (&[6], "0::3", Ok(&[2])),
            (&[5], "None", Ok(&[1, 5])),
            (&[1], "-1", Ok(&[])),
            (&[1], "", Ok(&[1])),
            (&[2, 6, 6], "", Ok(&[2, 6, 6])),
            (&[], "None", Ok(&[1])),
            (
                &[],
                ":6:2",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (
                &[5, 6],
                ":, -2:, :5:",
                Err("too many indices for array: array is 2-dimensional, but 3 were indexed"),
            ),
            (
                &[],
                "2",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (
                &[0, 5],
                "1",
                Err("index 1 is out of bounds for axis 0 with size 0"),
            ),
            (&[1, 5], "", Ok(&[1, 5])),
            (
                &[4, 5, 0],
                "6",
                Err("index 6 is out of bounds for axis 0 with size 4"),
            ),
            (&[4, 5], ":-6", Ok(&[0, 5])),
            (&[1, 3, 3], ":-1:", Ok(&[0, 3, 3])),
            (&[1], "...", Ok(&[1])),
            (&[4, 6], "::-1, ::", Ok(&[4, 6])),
            (&[5, 6], "1:7:", Ok(&[4, 6])),
            (
                &[3],
                ":1:, -5:2:",
                Err("too many indices for array: array is 1-dimensional, but 2 were indexed"),
            ),
            (
                &[],
                "-6",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[4, 6, 4], "", Ok(&[4, 6, 4])),
            (&[0, 5, 1], "", Ok(&[0, 5, 1])),
            (&[3, 6, 3], "1, 0", Ok(&[3])),
            (&[4, 2, 0], "-7::", Ok(&[4, 2, 0])),
            (
                &[],
                ":2:",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (
                &[5, 1],
                "4, :, ::3",
                Err("too many indices for array: array is 2-dimensional, but 3 were indexed"),
            ),
            (
                &[2],
                ":, -3",
                Err("too many indices for array: array is 1-dimensional, but 2 were indexed"),
            ),
            (&[5], "", Ok(&[5])),
            (&[3, 0], "None, :-4, :2", Ok(&[1, 0, 0])),
            (&[0, 5], "::, 2::", Ok(&[0, 3])),
            (
                &[2],
                "-6, 4",
                Err("too many indices for array: array is 1-dimensional, but 2 were indexed"),
            ),
            (&[0, 6, 0], "-1:, 5", Ok(&[0, 0])),
            (&[3], "-2:", Ok(&[2])),
            (&[0, 6], "-4:5:, None, 7:7", Ok(&[0, 1, 0])),
            (&[3], "", Ok(&[3])),
            (&[0], ":7", Ok(&[0])),
            (&[5, 2], "0, :-1", Ok(&[1])),
            (&[], "...", Ok(&[])),
            (&[3, 3], "", Ok(&[3, 3])),
            (&[5], "-2", Ok(&[])),
            (&[2, 2], "..., -6::, -5:", Ok(&[2, 2])),
            (
                &[2, 4, 3],
                "1:0:-1, 6, -6, -1:-7",
                Err("too many indices for array: array is 3-dimensional, but 4 were indexed"),
            ),
            (
                &[],
                "-3",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[5, 3, 2], "-5", Ok(&[3, 2])),
            (
                &[1, 6, 1],
                "-7::-3, -6:, -3:, -4:-6",
                Err("too many indices for array: array is 3-dimensional, but 4 were indexed"),
            ),
            (&[2, 2], "::", Ok(&[2, 2])),
            (
                &[],
                "::",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[3, 3], "-1, ::", Ok(&[3])),
            (&[3, 5, 2], "None, 3::, ::2", Ok(&[1, 0, 3, 2])),
            (
                &[],
                "4",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (
                &[],
                "5::3",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[0, 2], "7:0:-2, ..., :-6", Ok(&[0, 0])),
            (
                &[],
                "2:",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[6, 3], "None", Ok(&[1, 6, 3])),
            (&[6, 2, 6], "", Ok(&[6, 2, 6])),
            (&[4], "...", Ok(&[4])),
            (&[0, 4, 4], "-6:-6, None", Ok(&[0, 1, 4, 4])),
            (&[0], "None, :0", Ok(&[1, 0])),
            (&[2, 2, 6], "0:, None", Ok(&[2, 1, 2, 6])),
            (&[6, 6, 5], "None, None", Ok(&[1, 1, 6, 6, 5])),
            (
                &[],
                ":-1",
                Err("too many indices for array: array is 0-dimensional, but 1 were indexed"),
            ),
            (&[5, 1, 2], "1::", Ok(&[4, 1, 2])),
            (&[5, 1], "None", Ok(&[1, 5, 1])),
            (&[0, 4, 3], "", Ok(&[0, 4, 3])),
            (&[0, 1], ":2:-2", Ok(&[0, 1])),
            (
                &[2],
                "6",
                Err("index 6 is out of bounds for axis 0 with size 2"),
            ),
            (&[5, 4], "None, -1::-2, -4", Ok(&[1, 3])),
            (&[4, 6, 4], ":, None", Ok(&[4, 1, 6, 4])),
            (&[6, 1, 5], "-5:-5:, 2::, -4", Ok(&[0, 0])),
            (
                &[1, 5, 0],
                "2, :6:, :",
                Err("index 2 is out of bounds for axis 0 with size 1"),
            ),
            (&[5, 3], "..., ::", Ok(&[5, 3])),
            (&[0], "", Ok(&[0])),
            (&[5, 3], "", Ok(&[5, 3])),
            (&[1, 4, 2], "None, -5:5:", Ok(&[1, 1, 4, 2])),
            (&[1], "4:", Ok(&[0])),
            (&[2, 3], "", Ok(&[2, 3])),
            (&[2], "None, None", Ok(&[1, 1, 2])),
            (&[3], "2", Ok(&[])),
            (&[0, 4, 3], "-5:-4:", Ok(&[0, 4, 3])),
            (&[3], "0:-1", Ok(&[2])),
            (&[4, 4], "-7::2, 2:5, None", Ok(&[2, 2, 1])),
            (&[0], "..., 6::3", Ok(&[0])),
            (&[6, 6], "None, 4", Ok(&[1, 6])),
            (&[2], "..., :", Ok(&[2])),
            (&[1, 5], "-3::-2", Ok(&[0, 5])),
            (&[0, 3, 4], "", Ok(&[0, 3, 4])),
            (&[4, 2], "None, -2, ...", Ok(&[1, 2])),
            (&[5, 4], "", Ok(&[5, 4])),
            (&[6], "", Ok(&[6])),
            (&[6, 5], ":6:", Ok(&[6, 5])),
            (&[6, 1, 2], "2:5:3", Ok(&[1, 1, 2])),
            (&[4, 1, 0], "0:, :-3:, :-2:", Ok(&[4, 0, 0])),
            (&[4, 5, 0], ":0, 0", Ok(&[0, 0])),
            (&[2, 2], "", Ok(&[2, 2])),
            (&[5], "::-2", Ok(&[3])),
            (&[3, 4, 5], "1:-2", Ok(&[0, 4, 5])),
            (&[1], "0:-5:", Ok(&[0])),
            (&[4, 0, 6], ":1, ...", Ok(&[1, 0, 6])),
            (&[1, 6], "0, 1", Ok(&[])),
        ];
        for &(shape, index, expected) in table {
            let got = normalize_index(shape, &parse(index));
            match expected {
                Ok(out) => assert_eq!(got.map(|(_, s)| s), Ok(out.to_vec()), "{shape:?}[{index}]"),
                Err(message) => assert_eq!(got.unwrap_err().message, message, "{shape:?}[{index}]"),
            }
        }
    }
}
