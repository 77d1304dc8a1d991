//! Shape rules the verifiers, the inference and the op families share: the
//! expected-shape checks with their messages, shapes with axes set to length 1 or
//! removed, broadcasting to a shape, and an input's chunks along one axis.

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

/// An input's chunks along `axis`: its recorded splits, or one chunk of the axis's
/// length if it has none recorded.
pub fn axis_splits(shape: &[usize], nsplits: &[Vec<usize>], axis: usize) -> Vec<usize> {
    match nsplits.get(axis) {
        Some(splits) => splits.clone(),
        None => vec![shape.get(axis).copied().unwrap_or(0)],
    }
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
    }
}
