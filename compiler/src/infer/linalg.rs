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
    // `(..., n, n)`: the leading axes and `n`.
    let stacked_square = |shape: &'_ [usize]| match shape.len() {
        k if k >= 2 && shape[k - 1] == shape[k - 2] => {
            Some((shape[..k - 2].to_vec(), shape[k - 1]))
        }
        _ => None,
    };
    // `(..., m, n)`: the leading axes, `m` and `n`.
    let stacked = |shape: &'_ [usize]| match shape.len() {
        k if k >= 2 => Some((shape[..k - 2].to_vec(), shape[k - 2], shape[k - 1])),
        _ => None,
    };
    let with = |lead: Vec<usize>, tail: &[usize]| {
        let mut shape = lead;
        shape.extend_from_slice(tail);
        shape
    };
    let first = shapes.first()?;
    match op {
        LinalgOp::Solve => {
            let (lead, n) = stacked_square(first)?;
            let b = shapes.get(1)?;
            let vector = lead.is_empty() && b.len() == 1 && b[0] == n;
            let matrices =
                b.len() == lead.len() + 2 && b[..lead.len()] == lead[..] && b[lead.len()] == n;
            (vector || matrices).then(|| b.to_vec())
        }
        LinalgOp::SolveTriangular { .. } => {
            let (lead, n) = stacked_square(first)?;
            let b = shapes.get(1)?;
            let unstacked = lead.is_empty() && matches!(b.len(), 1 | 2) && b[0] == n;
            let matrices =
                b.len() == lead.len() + 2 && b[..lead.len()] == lead[..] && b[lead.len()] == n;
            (unstacked || matrices).then(|| b.to_vec())
        }
        LinalgOp::Inv | LinalgOp::Cholesky => {
            stacked_square(first).map(|(lead, n)| with(lead, &[n, n]))
        }
        LinalgOp::Det => stacked_square(first).map(|(lead, _)| lead),
        LinalgOp::SlogDet => stacked_square(first).map(|(lead, _)| with(lead, &[2])),
        LinalgOp::Eigh => stacked_square(first).map(|(lead, n)| with(lead, &[n + 1, n])),
        LinalgOp::Svd => square(first).map(|n| vec![2 * n + 1, n]),
        LinalgOp::SvdValues => stacked(first).map(|(lead, m, n)| with(lead, &[m.min(n)])),
        LinalgOp::Lu => stacked_square(first).map(|(lead, n)| with(lead, &[3 * n, n])),
        LinalgOp::QrQ => match **first {
            [m, n] if m >= n => Some(vec![m, n]),
            _ => None,
        },
        LinalgOp::QrR => match **first {
            [m, n] if m >= n => Some(vec![n, n]),
            _ => None,
        },
        LinalgOp::QrComplete => stacked(first).map(|(lead, m, n)| with(lead, &[m, m + n])),
        LinalgOp::QrReduced => stacked(first).map(|(lead, m, n)| with(lead, &[m + m.min(n), n])),
        LinalgOp::SvdFactors { full } => stacked(first).map(|(lead, m, n)| {
            let k = m.min(n);
            let (ku, kv) = if full { (m, n) } else { (k, k) };
            with(lead, &[m + 1 + kv, ku.max(n)])
        }),
        // Chunk-level steps of TSQR, never tensors of their own.
        LinalgOp::QrLocal | LinalgOp::QrStack => None,
    }
}

/// The number of leading (stacking) axes of a linalg op's inputs and result: those
/// of its first input beyond the matrix's two, for the ops that stack.
pub fn stacked_axes(op: LinalgOp, first: &[usize]) -> usize {
    if op.stacks() {
        first.len().saturating_sub(2)
    } else {
        0
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
        assert_eq!(
            linalg_shape(LinalgOp::Inv, &[&[4, 2, 3, 3]]),
            Some(vec![4, 2, 3, 3])
        );
        assert_eq!(linalg_shape(LinalgOp::Det, &[&[4, 3, 3]]), Some(vec![4]));
        assert_eq!(
            linalg_shape(LinalgOp::Lu, &[&[4, 3, 3]]),
            Some(vec![4, 9, 3])
        );
        let upper = LinalgOp::SolveTriangular { lower: false };
        assert_eq!(
            linalg_shape(upper, &[&[2, 3, 3], &[2, 3, 4]]),
            Some(vec![2, 3, 4])
        );
        assert_eq!(linalg_shape(upper, &[&[3, 3], &[3, 4]]), Some(vec![3, 4]));
        assert_eq!(linalg_shape(upper, &[&[2, 3, 3], &[3]]), None);
        assert_eq!(
            linalg_shape(LinalgOp::SlogDet, &[&[4, 3, 3]]),
            Some(vec![4, 2])
        );
        assert_eq!(
            linalg_shape(LinalgOp::Eigh, &[&[5, 3, 3]]),
            Some(vec![5, 4, 3])
        );
        assert_eq!(
            linalg_shape(LinalgOp::Solve, &[&[2, 3, 3], &[2, 3, 4]]),
            Some(vec![2, 3, 4])
        );
        assert_eq!(linalg_shape(LinalgOp::Solve, &[&[2, 3, 3], &[3]]), None);
        assert_eq!(
            linalg_shape(LinalgOp::QrComplete, &[&[5, 2]]),
            Some(vec![5, 7])
        );
        assert_eq!(
            linalg_shape(LinalgOp::QrComplete, &[&[3, 5, 2]]),
            Some(vec![3, 5, 7])
        );
        assert_eq!(
            linalg_shape(LinalgOp::QrReduced, &[&[3, 5, 2]]),
            Some(vec![3, 7, 2])
        );
        assert_eq!(
            linalg_shape(LinalgOp::QrReduced, &[&[3, 2, 5]]),
            Some(vec![3, 4, 5])
        );
        assert_eq!(
            linalg_shape(LinalgOp::SvdFactors { full: true }, &[&[4, 5, 2]]),
            Some(vec![4, 8, 5])
        );
        assert_eq!(
            linalg_shape(LinalgOp::SvdFactors { full: false }, &[&[4, 2, 5]]),
            Some(vec![4, 5, 5])
        );
    }
}
