//! Result shapes and chunking of the dense linear algebra ops (issue 20), as pure
//! rules shared by lowering, the TileableGraph verifier and nsplits inference: the
//! shapes of the packed results documented in `marsc_runtime::kernels::linalg`.

use marsc_runtime::kernels::linalg::LinalgOp;

/// The result shape of `op` on inputs of `shapes`, or `None` when they do not fit
/// (lowering has reported that case to the user before building the node).
pub fn linalg_shape(op: LinalgOp, shapes: &[&[usize]]) -> Option<Vec<usize>> {
    let square = |shape: &[usize]| match *shape {
        [n, m] if n == m => Some(n),
        _ => None,
    };
    let first = shapes.first()?;
    match op {
        LinalgOp::Solve => {
            let n = square(first)?;
            let b = shapes.get(1)?;
            (matches!(b.len(), 1 | 2) && b[0] == n).then(|| b.to_vec())
        }
        LinalgOp::Inv | LinalgOp::Cholesky => square(first).map(|n| vec![n, n]),
        LinalgOp::Det => square(first).map(|_| vec![]),
        LinalgOp::SlogDet => square(first).map(|_| vec![2]),
        LinalgOp::Eigh => square(first).map(|n| vec![n + 1, n]),
        LinalgOp::Svd => square(first).map(|n| vec![2 * n + 1, n]),
        LinalgOp::Lu => square(first).map(|n| vec![3 * n, n]),
        LinalgOp::QrQ => match **first {
            [m, n] if m >= n => Some(vec![m, n]),
            _ => None,
        },
        LinalgOp::QrR => match **first {
            [m, n] if m >= n => Some(vec![n, n]),
            _ => None,
        },
        // Chunk-level steps of TSQR, never tensors of their own.
        LinalgOp::QrLocal | LinalgOp::QrStack => None,
    }
}

/// The row splits TSQR gives a `(m, n)` matrix chunked along rows by `rows`: runs of
/// consecutive chunks merged until each holds at least `n` rows (a chunk's QR needs
/// as many rows as columns), a short tail joining the chunk before it.
pub fn tsqr_row_splits(rows: &[usize], n: usize) -> Vec<usize> {
    let mut merged: Vec<usize> = Vec::with_capacity(rows.len());
    let mut pending = 0;
    for &len in rows {
        pending += len;
        if pending >= n.max(1) {
            merged.push(pending);
            pending = 0;
        }
    }
    if pending > 0 {
        match merged.last_mut() {
            Some(last) => *last += pending,
            None => merged.push(pending),
        }
    }
    if merged.is_empty() {
        merged.push(0);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsqr_splits_merge_short_chunks() {
        assert_eq!(tsqr_row_splits(&[4, 4, 4], 3), [4, 4, 4]);
        assert_eq!(tsqr_row_splits(&[2, 2, 2, 2, 1], 3), [4, 5]);
        assert_eq!(tsqr_row_splits(&[2], 3), [2]);
        assert_eq!(tsqr_row_splits(&[5, 1], 3), [6]);
    }

    #[test]
    fn shapes_of_packed_results() {
        assert_eq!(linalg_shape(LinalgOp::Eigh, &[&[3, 3]]), Some(vec![4, 3]));
        assert_eq!(linalg_shape(LinalgOp::Svd, &[&[3, 3]]), Some(vec![7, 3]));
        assert_eq!(
            linalg_shape(LinalgOp::Solve, &[&[3, 3], &[3]]),
            Some(vec![3])
        );
        assert_eq!(linalg_shape(LinalgOp::Solve, &[&[3, 3], &[2]]), None);
        assert_eq!(linalg_shape(LinalgOp::Inv, &[&[3, 2]]), None);
    }
}
