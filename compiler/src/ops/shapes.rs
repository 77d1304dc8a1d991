//! Shape rules the chunk verifier and the op families share: the expected-shape
//! check with its message, and shapes with axes set to length 1 or removed.

use crate::error::Violation;

/// `Ok` when `actual` is `expected`, else the message the chunk verifier reports.
pub fn expect_shape(actual: &[usize], expected: &[usize], what: &str) -> Result<(), Violation> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what} shape {actual:?}, expected {expected:?}").into())
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
    }
}
