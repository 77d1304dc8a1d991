//! Float block products against NumPy 2.4 for odd shapes and layouts, and the same
//! bits whatever the thread count. Inputs are small multiples of powers of two, so
//! every product is exact and must equal NumPy's bit for bit.

use super::{float_product, float_product_sum, Threads};
use crate::array::ArrayData;
use crate::kernels::matmul::{matmul_block, matmul_blocks};
use ndarray::{s, Array2, ArrayD, IxDyn};

/// `((np.arange(len) * 5) % 11 - 5) / 4`.
fn a_values(len: usize) -> Vec<f64> {
    (0..len)
        .map(|i| ((i * 5) % 11) as f64 / 4.0 - 1.25)
        .collect()
}

/// `((np.arange(len) * 7) % 9 - 4) / 8`.
fn b_values(len: usize) -> Vec<f64> {
    (0..len).map(|i| ((i * 7) % 9) as f64 / 8.0 - 0.5).collect()
}

fn operands(n: usize, k: usize, m: usize) -> (Array2<f64>, Array2<f64>) {
    (
        Array2::from_shape_vec((n, k), a_values(n * k)).expect("a fits"),
        Array2::from_shape_vec((k, m), b_values(k * m)).expect("b fits"),
    )
}

fn float64(array: Array2<f64>) -> ArrayData {
    ArrayData::Float64(array.into_dyn())
}

fn float32(array: Array2<f64>) -> ArrayData {
    ArrayData::Float32(array.mapv(|v| v as f32).into_dyn())
}

fn expect_product(n: usize, k: usize, m: usize, numpy: &[f64]) {
    let (a, b) = operands(n, k, m);
    let want = ArrayD::from_shape_vec(IxDyn(&[n, m]), numpy.to_vec()).expect("numpy fits");
    let got = matmul_block(&float64(a.clone()), &float64(b.clone()));
    assert_eq!(
        got,
        Ok(ArrayData::Float64(want.clone())),
        "{n}x{k} @ {k}x{m}"
    );
    let got32 = matmul_block(&float32(a), &float32(b));
    let want32 = ArrayData::Float32(want.mapv(|v| v as f32));
    assert_eq!(got32, Ok(want32), "float32 {n}x{k} @ {k}x{m}");
}

#[test]
fn odd_shapes_match_numpy() {
    #[rustfmt::skip]
    let seven_by_five = [
        1.21875, -0.4375, -0.125, 0.75, 0.78125, 0.71875, 0.75, -0.0625, -0.3125, 1.125,
        -0.8125, 1.59375, 0.34375, -0.34375, 0.09375, -1.65625, 0.03125, 1.4375, 0.3125,
        -0.25, -1.8125, -0.84375, 0.125, 1.65625, 0.09375, -1.28125, -1.03125, -0.5,
        0.59375, 1.125, 0.625, -0.53125, -1.125, -1.15625, 0.78125,
    ];
    expect_product(7, 13, 5, &seven_by_five);
    expect_product(
        1,
        9,
        6,
        &[0.28125, -0.75, 0.46875, 0.28125, 0.375, -0.65625],
    );
    expect_product(6, 9, 1, &[0.25, -0.09375, 0.9375, 0.25, 0.9375, 0.9375]);
    #[rustfmt::skip]
    let outer = [
        0.625, -0.46875, -0.15625, 0.15625, 0.0, 0.0, 0.0, 0.0, -0.625, 0.46875, 0.15625,
        -0.15625,
    ];
    expect_product(3, 1, 4, &outer);
}

#[test]
fn empty_operands_give_empty_or_zero_products() {
    expect_product(0, 4, 3, &[]);
    expect_product(3, 4, 0, &[]);
    expect_product(2, 0, 3, &[0.0; 6]);
}

#[test]
fn transposed_operands_match_numpy() {
    // a.T @ b.T with a (13, 7) and b (5, 13): both operands column-major.
    let a = Array2::from_shape_vec((13, 7), a_values(91)).expect("a fits");
    let b = Array2::from_shape_vec((5, 13), b_values(65)).expect("b fits");
    #[rustfmt::skip]
    let numpy = [
        0.4375, -1.21875, -1.75, -0.875, 0.5625, 0.625, 0.96875, 1.03125, 0.8125, -0.25,
        -0.5625, -1.65625, -1.34375, 0.09375, -0.71875, 0.3125, 0.875, 1.4375, 1.4375,
        0.875, 0.15625, -0.71875, 0.09375, -1.34375, -1.65625, -1.03125, -0.25, 0.8125,
        1.03125, 0.96875, 0.875, 0.5625, -0.875, -1.75, -1.21875,
    ];
    let want = Array2::from_shape_vec((7, 5), numpy.to_vec()).expect("numpy fits");
    let got = matmul_block(&float64(a.reversed_axes()), &float64(b.reversed_axes()));
    assert_eq!(got, Ok(float64(want)));
}

#[test]
fn strided_operands_in_the_blocked_kernel_match_numpy() {
    // a = (...).reshape(400, 300)[::2] (neither row- nor column-contiguous) and
    // b = (...).reshape(150, 300).T (column-major): large enough for faer's tiled,
    // multi-threaded kernel rather than its small-matrix path.
    let mut a = Array2::from_shape_vec((400, 300), a_values(120_000)).expect("a fits");
    a.slice_collapse(s![..;2, ..]);
    let b = Array2::from_shape_vec((150, 300), b_values(45_000)).expect("b fits");
    let b = b.reversed_axes();
    for product in [
        float_product(a.view(), b.view(), Threads::Pool),
        float_product(a.view(), b.view(), Threads::One),
    ] {
        assert_eq!(product.dim(), (200, 150));
        assert_eq!(product.sum(), 42.1875);
        assert_eq!(product.mapv(|v| v * v).sum(), 6488.818359375);
        assert_eq!(
            (product[[0, 0]], product[[17, 42]], product[[199, 149]]),
            (0.78125, 0.4375, 0.0625)
        );
    }
    let (a32, b32) = (a.mapv(|v| v as f32), b.mapv(|v| v as f32));
    let product32 = float_product(a32.view(), b32.view(), Threads::Pool);
    assert_eq!(product32.mapv(f64::from).sum(), 42.1875);
    assert_eq!(product32[[17, 42]], 0.4375);
}

/// The product with tiles spread over a private pool of `threads` threads.
fn on_pool<T: Send>(threads: usize, product: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    pool.expect("a test thread pool").install(product)
}

#[test]
fn thread_count_never_changes_a_bit() {
    // Inexact values, several row panels and column tiles, and a contraction longer
    // than faer's 512-long k steps.
    let values = |len: usize, seed: f64| (0..len).map(move |i| (i as f64 * seed).sin());
    let a = Array2::from_shape_vec((601, 1100), values(601 * 1100, 0.37).collect());
    let b = Array2::from_shape_vec((1100, 1030), values(1100 * 1030, 0.91).collect());
    let (a, b) = (a.expect("a fits"), b.expect("b fits"));
    let one = float_product(a.view(), b.view(), Threads::One);
    for threads in [2, 3] {
        let many = on_pool(threads, || float_product(a.view(), b.view(), Threads::Pool));
        assert!(
            one.iter()
                .zip(&many)
                .all(|(x, y)| x.to_bits() == y.to_bits()),
            "{threads} threads differ from one"
        );
    }
    let (a32, b32) = (a.mapv(|v| v as f32), b.mapv(|v| v as f32));
    let one32 = float_product(a32.view(), b32.view(), Threads::One);
    let two32 = on_pool(2, || float_product(a32.view(), b32.view(), Threads::Pool));
    assert!(one32
        .iter()
        .zip(&two32)
        .all(|(x, y)| x.to_bits() == y.to_bits()));
}

#[test]
fn runs_of_products_sum_like_numpy() {
    // a0 @ b0 + a1.T @ b1 + a2 @ b2 with a0 (5, 3), a1 stored (7, 5), a2 (5, 1):
    // contracted lengths 3, 7 and 1, the middle left operand column-major.
    let a0 = Array2::from_shape_vec((5, 3), a_values(15)).expect("a0 fits");
    let b0 = Array2::from_shape_vec((3, 4), b_values(12)).expect("b0 fits");
    let a1 = Array2::from_shape_vec((7, 5), a_values(35)).expect("a1 fits");
    let b1 = Array2::from_shape_vec((7, 4), b_values(28)).expect("b1 fits");
    let a2 = Array2::from_shape_vec((5, 1), a_values(5)).expect("a2 fits");
    let b2 = Array2::from_shape_vec((1, 4), b_values(4)).expect("b2 fits");
    #[rustfmt::skip]
    let numpy = [
        1.65625, -2.5, 0.9375, 0.15625, -0.15625, 1.65625, -0.75, 0.78125, -1.28125, 0.3125,
        1.34375, -1.0, 0.34375, 0.0, -0.34375, 1.0, -1.125, 0.71875, 0.03125, -0.09375,
    ];
    let want = Array2::from_shape_vec((5, 4), numpy.to_vec()).expect("numpy fits");
    let a1 = a1.reversed_axes();
    let operands64 = [&a0, &b0, &a1, &b1, &a2, &b2].map(|x| float64(x.clone()));
    let got = matmul_blocks(&operands64.iter().collect::<Vec<_>>());
    assert_eq!(got, Ok(float64(want.clone())));
    let operands32 = [&a0, &b0, &a1, &b1, &a2, &b2].map(|x| float32(x.clone()));
    let got32 = matmul_blocks(&operands32.iter().collect::<Vec<_>>());
    assert_eq!(got32, Ok(float32(want)));
}

#[test]
fn malformed_runs_are_errors() {
    let (a, b) = operands(3, 4, 5);
    let (a, b) = (float64(a), float64(b));
    let (c, d) = operands(2, 4, 5);
    let (c, d) = (float64(c), float64(d));
    assert!(matmul_blocks(&[]).is_err());
    assert!(matmul_blocks(&[&a, &b, &a]).is_err());
    // A second pair whose product is (2, 5), not (3, 5).
    assert!(matmul_blocks(&[&a, &b, &c, &d]).is_err());
    // A second pair of another dtype.
    let (e, f) = operands(3, 4, 5);
    assert!(matmul_blocks(&[&a, &b, &float32(e), &float32(f)]).is_err());
}

#[test]
fn summed_runs_never_depend_on_the_thread_count() {
    let values = |len: usize, seed: f64| (0..len).map(move |i| (i as f64 * seed).sin());
    let matrix = |rows: usize, columns: usize, seed: f64| {
        Array2::from_shape_vec((rows, columns), values(rows * columns, seed).collect())
            .expect("matrix fits")
    };
    let (a0, b0) = (matrix(700, 300, 0.37), matrix(300, 1100, 0.91));
    let (a1, b1) = (matrix(700, 650, 0.53), matrix(650, 1100, 0.29));
    let pairs = [(a0.view(), b0.view()), (a1.view(), b1.view())];
    let one = float_product_sum(&pairs, (700, 1100), Threads::One);
    let two = on_pool(2, || float_product_sum(&pairs, (700, 1100), Threads::Pool));
    assert!(one
        .iter()
        .zip(&two)
        .all(|(x, y)| x.to_bits() == y.to_bits()));
    // Within reassociation error of the two products added afterwards.
    let separate = float_product(a0.view(), b0.view(), Threads::One)
        + float_product(a1.view(), b1.view(), Threads::One);
    assert!(one
        .iter()
        .zip(&separate)
        .all(|(x, y)| (x - y).abs() <= 1e-12 * (1.0 + y.abs())));
}
