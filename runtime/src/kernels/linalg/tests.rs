//! The dense kernels against hand-computed results and their defining identities.

use super::*;

fn f64s(shape: &[usize], values: &[f64]) -> ArrayData {
    ArrayData::Float64(ArrayD::from_shape_vec(shape.to_vec(), values.to_vec()).unwrap())
}

fn values(a: &ArrayData) -> Vec<f64> {
    match a {
        ArrayData::Float64(a) => a.iter().copied().collect(),
        other => panic!("expected float64, got {other:?}"),
    }
}

fn close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "{a:?} vs {b:?}");
    }
}

#[test]
fn solve_inv_det_slogdet() {
    let a = f64s(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let b = f64s(&[2], &[5.0, 6.0]);
    close(
        &values(&linalg(LinalgOp::Solve, 0, &[&a, &b]).unwrap()),
        &[-4.0, 4.5],
    );
    close(
        &values(&linalg(LinalgOp::Inv, 0, &[&a]).unwrap()),
        &[-2.0, 1.0, 1.5, -0.5],
    );
    close(&values(&linalg(LinalgOp::Det, 0, &[&a]).unwrap()), &[-2.0]);
    close(
        &values(&linalg(LinalgOp::SlogDet, 0, &[&a]).unwrap()),
        &[-1.0, 2f64.ln()],
    );
}

#[test]
fn singular_matrix_is_numpys_error_and_zero_determinant() {
    let a = f64s(&[2, 2], &[1.0, 2.0, 2.0, 4.0]);
    let b = f64s(&[2], &[1.0, 1.0]);
    let error = linalg(LinalgOp::Solve, 0, &[&a, &b]).unwrap_err();
    assert_eq!(error.0, "Singular matrix");
    assert_eq!(
        linalg(LinalgOp::Inv, 0, &[&a]).unwrap_err().0,
        "Singular matrix"
    );
    assert_eq!(values(&linalg(LinalgOp::Det, 0, &[&a]).unwrap()), [0.0]);
    assert_eq!(
        values(&linalg(LinalgOp::SlogDet, 0, &[&a]).unwrap()),
        [0.0, f64::NEG_INFINITY]
    );
}

#[test]
fn cholesky_reads_the_lower_triangle_and_rejects_indefinite() {
    // The upper triangle holds garbage NumPy ignores too.
    let a = f64s(&[2, 2], &[4.0, 99.0, 2.0, 5.0]);
    close(
        &values(&linalg(LinalgOp::Cholesky, 0, &[&a]).unwrap()),
        &[2.0, 0.0, 1.0, 2.0],
    );
    let bad = f64s(&[2, 2], &[1.0, 2.0, 2.0, 1.0]);
    assert_eq!(
        linalg(LinalgOp::Cholesky, 0, &[&bad]).unwrap_err().0,
        "Matrix is not positive definite"
    );
}

#[test]
fn eigh_packs_ascending_values_over_vectors() {
    let a = f64s(&[2, 2], &[2.0, 1.0, 1.0, 2.0]);
    let packed = values(&linalg(LinalgOp::Eigh, 0, &[&a]).unwrap());
    close(&packed[..2], &[1.0, 3.0]);
    // a @ v[:, j] = w[j] v[:, j]
    for j in 0..2 {
        let (v0, v1) = (packed[2 + j], packed[4 + j]);
        close(
            &[2.0 * v0 + v1, v0 + 2.0 * v1],
            &[packed[j] * v0, packed[j] * v1],
        );
    }
}

#[test]
fn tsqr_of_two_blocks_reconstructs_the_matrix() {
    let rows: Vec<f64> = (0..12)
        .map(|i| ((i * 7) % 5) as f64 + 0.5 * i as f64)
        .collect();
    let top = f64s(&[3, 2], &rows[..6]);
    let bottom = f64s(&[3, 2], &rows[6..]);
    let local: Vec<_> = [&top, &bottom]
        .iter()
        .map(|block| linalg(LinalgOp::QrLocal, 0, &[block]).unwrap())
        .collect();
    let second = linalg(LinalgOp::QrStack, 0, &[&local[0], &local[1]]).unwrap();
    assert_eq!(second.shape(), &[6, 2]);
    let r = values(&linalg(LinalgOp::QrR, 0, &[&second]).unwrap());
    assert_eq!(r[2], 0.0);
    let mut q = Vec::new();
    for (index, block) in local.iter().enumerate() {
        q.extend(values(
            &linalg(LinalgOp::QrQ, index, &[block, &second]).unwrap(),
        ));
    }
    let product: Vec<f64> = (0..6)
        .flat_map(|i| (0..2).map(move |j| (i, j)))
        .map(|(i, j)| (0..2).map(|l| q[i * 2 + l] * r[l * 2 + j]).sum())
        .collect();
    close(&product, &rows);
}

#[test]
fn svd_of_a_square_matrix_is_descending_and_reconstructs() {
    let a = f64s(&[2, 2], &[3.0, 0.0, 4.0, 5.0]);
    let packed = values(&linalg(LinalgOp::Svd, 0, &[&a]).unwrap());
    let (u, s, vh) = (&packed[..4], &packed[4..6], &packed[6..]);
    close(s, &[45f64.sqrt(), 5f64.sqrt()]);
    let rebuilt: Vec<f64> = (0..2)
        .flat_map(|i| (0..2).map(move |j| (i, j)))
        .map(|(i, j)| (0..2).map(|l| u[i * 2 + l] * s[l] * vh[l * 2 + j]).sum())
        .collect();
    close(&rebuilt, &[3.0, 0.0, 4.0, 5.0]);
}

fn shape(a: &ArrayData) -> Vec<usize> {
    match a {
        ArrayData::Float64(a) => a.shape().to_vec(),
        other => panic!("expected float64, got {other:?}"),
    }
}

#[test]
fn stacked_matrices_give_one_result_each() {
    // Two 2x2 matrices: [[1, 2], [3, 4]] and 2 * identity.
    let a = f64s(&[2, 2, 2], &[1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0]);
    let det = linalg(LinalgOp::Det, 0, &[&a]).unwrap();
    assert_eq!(shape(&det), [2]);
    close(&values(&det), &[-2.0, 4.0]);
    let inv = linalg(LinalgOp::Inv, 0, &[&a]).unwrap();
    assert_eq!(shape(&inv), [2, 2, 2]);
    close(&values(&inv), &[-2.0, 1.0, 1.5, -0.5, 0.5, 0.0, 0.0, 0.5]);
    let slogdet = linalg(LinalgOp::SlogDet, 0, &[&a]).unwrap();
    assert_eq!(shape(&slogdet), [2, 2]);
    close(&values(&slogdet), &[-1.0, 2f64.ln(), 1.0, 4f64.ln()]);
    let b = f64s(&[2, 2, 1], &[5.0, 6.0, 2.0, 4.0]);
    let x = linalg(LinalgOp::Solve, 0, &[&a, &b]).unwrap();
    assert_eq!(shape(&x), [2, 2, 1]);
    close(&values(&x), &[-4.0, 4.5, 1.0, 2.0]);
    let s = linalg(LinalgOp::SvdValues, 0, &[&a]).unwrap();
    assert_eq!(shape(&s), [2, 2]);
    close(&values(&s)[2..], &[2.0, 2.0]);
    // A singular matrix anywhere in the stack is NumPy's error.
    let singular = f64s(&[2, 2, 2], &[1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0]);
    assert_eq!(
        linalg(LinalgOp::Inv, 0, &[&singular]).unwrap_err().0,
        "Singular matrix"
    );
}

#[test]
fn complete_qr_is_square_orthogonal_and_reconstructs() {
    let (m, n) = (4, 2);
    let a = f64s(&[m, n], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]);
    let packed = linalg(LinalgOp::QrComplete, 0, &[&a]).unwrap();
    assert_eq!(shape(&packed), [m, m + n]);
    let p = values(&packed);
    let q = |i: usize, j: usize| p[i * (m + n) + j];
    let r = |i: usize, j: usize| p[i * (m + n) + m + j];
    let a = values(&a);
    for i in 0..m {
        for j in 0..m {
            let dot: f64 = (0..m).map(|k| q(k, i) * q(k, j)).sum();
            assert!((dot - f64::from(u8::from(i == j))).abs() < 1e-12);
        }
        for j in 0..n {
            let product: f64 = (0..m).map(|k| q(i, k) * r(k, j)).sum();
            assert!((product - a[i * n + j]).abs() < 1e-12);
            if i > j {
                assert_eq!(r(i, j), 0.0);
            }
        }
    }
}

#[test]
fn triangular_solves_read_one_triangle() {
    // The other triangle holds values that must be ignored.
    let a = f64s(&[2, 2], &[2.0, 1.0, 100.0, 4.0]);
    let b = f64s(&[2], &[4.0, 8.0]);
    close(
        &values(&linalg(LinalgOp::SolveTriangular { lower: false }, 0, &[&a, &b]).unwrap()),
        &[1.0, 2.0],
    );
    let a = f64s(&[2, 2], &[2.0, 100.0, 1.0, 4.0]);
    let b = f64s(&[2, 1], &[4.0, 6.0]);
    close(
        &values(&linalg(LinalgOp::SolveTriangular { lower: true }, 0, &[&a, &b]).unwrap()),
        &[2.0, 1.0],
    );
    let singular = f64s(&[2, 2], &[1.0, 0.0, 5.0, 0.0]);
    assert_eq!(
        linalg(
            LinalgOp::SolveTriangular { lower: true },
            0,
            &[&singular, &b]
        )
        .unwrap_err()
        .0,
        "singular matrix: resolution failed at diagonal 1"
    );
}

#[test]
fn blocked_tsqr_reconstructs_and_matches_the_direct_r() {
    for (m, n, block) in [
        (37, 3, 4),
        (200, 5, 10),
        (64, 4, 8),
        (1000, 7, 20),
        (9, 9, 1),
    ] {
        let a = Array2::from_shape_fn((m, n), |(i, j)| {
            ((i * 7 + j * 13) % 11) as f64 - 5.0 + if i == j { 10.0 } else { 0.0 }
        });
        let (q, r) = tsqr::tall_qr(a.view(), block);
        let (_, r0) = tsqr::tall_qr(a.view(), m);
        assert_eq!((q.dim(), r.dim()), ((m, n), (n, n)));
        let qr = q.dot(&r);
        let qtq = q.t().dot(&q);
        for ((i, j), &x) in qr.indexed_iter() {
            assert!((x - a[[i, j]]).abs() < 1e-10, "q @ r at {i},{j}: {x}");
        }
        for ((i, j), &x) in qtq.indexed_iter() {
            let one = f64::from(u8::from(i == j));
            assert!((x - one).abs() < 1e-12, "q.T @ q at {i},{j}: {x}");
        }
        for ((i, j), &x) in r.indexed_iter() {
            assert!(j >= i || x == 0.0);
            assert!((x.abs() - r0[[i, j]].abs()).abs() < 1e-10, "|r| at {i},{j}");
        }
    }
}

/// A 70x70 matrix that needs pivoting (a zero diagonal), large enough for faer's
/// recursive LU to split it: `a @ solve(a, b) == b`, `a @ inv(a) == I`, and the
/// sign and log-magnitude of the determinant of a row-permuted triangular matrix.
#[test]
fn transposed_lu_solves_inverts_and_signs_the_determinant() {
    let n = 70;
    // A cyclic shift of an upper triangular matrix with 2 on its diagonal: row i is
    // row i + 1 of the triangle, so every pivot must come from another row.
    let triangle = |i: usize, j: usize| match j.cmp(&i) {
        std::cmp::Ordering::Less => 0.0,
        std::cmp::Ordering::Equal => 2.0,
        std::cmp::Ordering::Greater => ((i * 7 + j * 3) % 5) as f64 * 0.25 - 0.5,
    };
    let a: Vec<f64> = (0..n * n)
        .map(|k| triangle((k / n + 1) % n, k % n))
        .collect();
    let matrix = ndarray::Array2::from_shape_vec((n, n), a.clone()).unwrap();
    let rhs: Vec<f64> = (0..n).map(|i| (i % 9) as f64 - 4.0).collect();
    let x = values(&linalg(LinalgOp::Solve, 0, &[&f64s(&[n, n], &a), &f64s(&[n], &rhs)]).unwrap());
    let ax = matrix.dot(&ndarray::Array1::from_vec(x));
    close(&ax.to_vec(), &rhs);
    let inverse = values(&linalg(LinalgOp::Inv, 0, &[&f64s(&[n, n], &a)]).unwrap());
    let product = matrix.dot(&ndarray::Array2::from_shape_vec((n, n), inverse).unwrap());
    let identity = ndarray::Array2::<f64>::eye(n);
    for (p, e) in product.iter().zip(identity.iter()) {
        assert!((p - e).abs() < 1e-12, "a @ inv(a) is not the identity");
    }
    // The rows are an n-cycle of a triangle's (sign (-1)^(n-1)), det 2^n.
    let (sign, logabs) =
        match values(&linalg(LinalgOp::SlogDet, 0, &[&f64s(&[n, n], &a)]).unwrap())[..] {
            [sign, logabs] => (sign, logabs),
            _ => panic!("slogdet packs two values"),
        };
    assert_eq!(sign, -1.0);
    close(&[logabs], &[n as f64 * 2f64.ln()]);
}

#[test]
fn stacked_lu_and_triangular_solves_run_per_matrix() {
    let a = f64s(&[2, 2, 2], &[1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 1.0, 4.0]);
    let packed = linalg(LinalgOp::Lu, 0, &[&a]).unwrap();
    assert_eq!(shape(&packed), [2, 6, 2]);
    let factors = values(&packed);
    // p, l, u of [[1, 2], [3, 4]], then of [[2, 0], [1, 4]].
    close(
        &factors[..12],
        &[
            0.0,
            1.0,
            1.0,
            0.0,
            1.0,
            0.0,
            1.0 / 3.0,
            1.0,
            3.0,
            4.0,
            0.0,
            2.0 / 3.0,
        ],
    );
    close(
        &factors[12..],
        &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.5, 1.0, 2.0, 0.0, 0.0, 4.0],
    );
    let b = f64s(&[2, 2, 1], &[2.0, 3.0, 4.0, 8.0]);
    let x = linalg(LinalgOp::SolveTriangular { lower: true }, 0, &[&a, &b]).unwrap();
    assert_eq!(shape(&x), [2, 2, 1]);
    // [[1, 0], [3, 4]] x = [2, 3]; [[2, 0], [1, 4]] x = [4, 8].
    close(&values(&x), &[2.0, -0.75, 2.0, 1.5]);
}

/// Rows that are exact multiples are a zero pivot for LAPACK's row pivoting (NumPy's
/// "Singular matrix", a zero determinant), but rounding for the transposed
/// factorization: the tiny pivot sends it to the row-pivoted one.
#[test]
fn multiple_rows_are_singular_as_for_lapack() {
    let a = f64s(&[3, 3], &[1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 0.0, 1.0]);
    let b = f64s(&[3], &[1.0, 1.0, 1.0]);
    let error = linalg(LinalgOp::Solve, 0, &[&a, &b]).unwrap_err();
    assert_eq!(error.0, "Singular matrix");
    assert_eq!(values(&linalg(LinalgOp::Det, 0, &[&a]).unwrap()), [0.0]);
    // Well away from singular, the transposed factorization's answer.
    let well = f64s(&[3, 3], &[1.0, 2.0, 3.0, 2.0, 5.0, 6.0, 1.0, 0.0, 1.0]);
    close(
        &values(&linalg(LinalgOp::Det, 0, &[&well]).unwrap()),
        &[-2.0],
    );
}
