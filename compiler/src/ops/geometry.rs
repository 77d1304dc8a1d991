//! Shape rules the verifiers, the inference and the op families share: the
//! expected-shape checks with their messages, shapes with axes set to length 1 or
//! removed, broadcasting to a shape and shapes together, an input's chunks along
//! one axis, and the common refinement of two chunkings of an axis.

use super::text::compact_tuple;
use crate::error::Violation;

/// `Ok` when `actual` is `expected`, else the message the chunk verifier reports.
pub fn expect_shape(actual: &[usize], expected: &[usize], what: &str) -> Result<(), Violation> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what} shape {actual:?}, expected {expected:?}").into())
    }
}

/// `Ok` when a node's shape is the one its rule gives, else the TileableGraph
/// verifier's message.
pub fn expect_node_shape(actual: &[usize], expected: &[usize]) -> Result<(), Violation> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("shape {actual:?}, expected {expected:?}").into())
    }
}

/// `Ok` when each of `axes` is an axis of `shape` of length 1, else the chunk
/// verifier's message.
pub fn expect_ones(shape: &[usize], axes: &[usize]) -> Result<(), Violation> {
    if axes.iter().all(|&a| shape.get(a) == Some(&1)) {
        Ok(())
    } else {
        Err(format!("axes {axes:?} of {shape:?} are not all length 1").into())
    }
}

/// `shape` with each of `axes` (those in range) of length 1.
pub fn with_ones(shape: &[usize], axes: &[usize]) -> Vec<usize> {
    let mut shape = shape.to_vec();
    for &axis in axes {
        if let Some(len) = shape.get_mut(axis) {
            *len = 1;
        }
    }
    shape
}

/// `shape` without `axes`.
pub fn without(shape: &[usize], axes: &[usize]) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter(|(axis, _)| !axes.contains(axis))
        .map(|(_, &len)| len)
        .collect()
}

/// Whether `from` broadcasts to `to`: aligned from the right, each length equal to
/// the one it meets or 1, and no more axes.
pub fn broadcasts_to(from: &[usize], to: &[usize]) -> bool {
    from.len() <= to.len()
        && from
            .iter()
            .rev()
            .zip(to.iter().rev())
            .all(|(&f, &t)| f == t || f == 1)
}

/// `Ok` when `from` broadcasts to `to`, else the chunk verifier's message.
pub fn broadcastable(from: &[usize], to: &[usize]) -> Result<(), Violation> {
    if broadcasts_to(from, to) {
        Ok(())
    } else {
        Err(format!("{from:?} does not broadcast to {to:?}").into())
    }
}

/// Why `from` does not broadcast to `to`, in NumPy's `broadcast_to` words, with a
/// help; `None` when it does (inference reports it to the user, the TileableGraph
/// verifier as a violation).
pub fn broadcast_to_error(from: &[usize], to: &[usize]) -> Option<(String, &'static str)> {
    if from.len() > to.len() {
        return Some((
            "input operand has more dimensions than allowed by the axis remapping".into(),
            "broadcasting can add axes on the left but never remove them",
        ));
    }
    if broadcasts_to(from, to) {
        return None;
    }
    Some((
        format!(
            "operands could not be broadcast together with remapped shapes [original->remapped]: {}  and requested shape {}",
            compact_tuple(from),
            compact_tuple(to)
        ),
        "aligned from the right, each length must equal the requested one or be 1",
    ))
}

/// `np.broadcast_shapes`: the shape `shapes` broadcast together to (axes aligned
/// from the right, length 1 stretches), or `None` when two lengths of an axis
/// differ and neither is 1 ([`broadcast_shapes_error`] says why).
pub fn broadcast_together(shapes: &[&[usize]]) -> Option<Vec<usize>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; ndim];
    for shape in shapes {
        let offset = ndim - shape.len();
        for (axis, &len) in shape.iter().enumerate() {
            let slot = &mut out[offset + axis];
            if *slot == 1 {
                *slot = len;
            } else if len != 1 && len != *slot {
                return None;
            }
        }
    }
    Some(out)
}

/// Why `shapes` do not broadcast together, in NumPy's words, with a help
/// (inference reports it to the user, the TileableGraph verifier as a violation).
pub fn broadcast_shapes_error(shapes: &[&[usize]]) -> (String, &'static str) {
    let listed: Vec<String> = shapes.iter().map(|s| compact_tuple(s)).collect();
    (
        format!(
            "operands could not be broadcast together with shapes {}",
            listed.join(" ")
        ),
        "aligned from the right, each pair of lengths must be equal or one of them 1",
    )
}

/// An input's chunks along `axis`: its recorded splits, or one chunk of the axis's
/// length if it has none recorded.
pub fn axis_splits(shape: &[usize], nsplits: &[Vec<usize>], axis: usize) -> Vec<usize> {
    match nsplits.get(axis) {
        Some(splits) => splits.clone(),
        None => vec![shape.get(axis).copied().unwrap_or(0)],
    }
}

/// The common refinement of two chunkings of the same axis: (2,2)+(3,1) -> (2,1,1).
pub fn unify_splits(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a_iter, mut b_iter) = (a.iter(), b.iter());
    let (mut a_end, mut b_end) = (a_iter.next().copied(), b_iter.next().copied());
    let mut position = 0;
    // Walk both lists of chunk ends in step, emitting a chunk at every end either has.
    loop {
        let next = match (a_end, b_end) {
            (None, None) => break,
            (Some(x), None) | (None, Some(x)) => x,
            (Some(x), Some(y)) => x.min(y),
        };
        if a_end == Some(next) {
            a_end = a_iter.next().map(|s| next + s);
        }
        if b_end == Some(next) {
            b_end = b_iter.next().map(|s| next + s);
        }
        if next > position {
            out.push(next - position);
            position = next;
        }
    }
    non_empty(out)
}

/// Drops empty chunks; an axis with nothing left is the single chunk `[0]`.
pub fn non_empty(mut splits: Vec<usize>) -> Vec<usize> {
    splits.retain(|&s| s > 0);
    if splits.is_empty() {
        splits.push(0);
    }
    splits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_kept_as_ones_or_dropped() {
        assert_eq!(with_ones(&[4, 5, 6], &[0, 2, 7]), [1, 5, 1]);
        assert_eq!(without(&[4, 5, 6], &[0, 2]), [5]);
        assert_eq!(
            expect_shape(&[2], &[3], "part"),
            Err("part shape [2], expected [3]".into())
        );
        assert_eq!(
            expect_ones(&[1, 3], &[1]),
            Err("axes [1] of [1, 3] are not all length 1".into())
        );
    }

    #[test]
    fn broadcasting_to_a_shape() {
        assert!(broadcasts_to(&[3, 1], &[2, 3, 4]) && !broadcasts_to(&[2, 3], &[3, 3]));
        assert_eq!(broadcastable(&[3], &[2, 3]), Ok(()));
        assert_eq!(broadcast_to_error(&[1, 3], &[4, 3]), None);
        let (message, _) = broadcast_to_error(&[2], &[3]).unwrap();
        assert!(
            message.ends_with("(2,)  and requested shape (3,)"),
            "{message}"
        );
        assert_eq!(axis_splits(&[4, 5], &[vec![2, 2]], 1), [5]);
        assert_eq!(
            broadcast_together(&[&[4, 1][..], &[3][..]]),
            Some(vec![4, 3])
        );
        assert_eq!(broadcast_together(&[]), Some(vec![]));
        assert_eq!(broadcast_together(&[&[2, 3][..], &[4][..]]), None);
        assert_eq!(
            broadcast_shapes_error(&[&[2, 3][..], &[4][..]]).0,
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
    }
}
