//! Reductions that keep the innermost axis, against NumPy 2.4 (values pasted in): NumPy
//! adds rows one after another there, so float sums differ from pairwise sums of the
//! same columns, and these inputs are built so that they do.

use super::rows::{reduces_by_rows, RowWalk};
use super::tests::{array, reduce, reduce_with};
use super::{reduce_finish, reduce_map};
use crate::array::ArrayData;
use crate::ops::{ReduceOp, Reduction};

/// `[[1e16, 1.0, -1e16, 3.0][i % 4] for i in range(24)]`: pairwise 24.0, rows 23.0.
fn column() -> Vec<f64> {
    (0..24).map(|i| [1e16, 1.0, -1e16, 3.0][i % 4]).collect()
}

/// `np.stack([col, col * 0.5, -col], axis=1)`, shape (24, 3).
fn three_columns() -> Vec<f64> {
    column().iter().flat_map(|&v| [v, v * 0.5, -v]).collect()
}

#[test]
fn float_sums_over_leading_axes_add_rows_in_order() {
    let x = array(&[24, 3], three_columns());
    // x.sum(axis=0); the pairwise sums of the columns would be [24.0, 12.0, -24.0].
    assert_eq!(
        reduce(ReduceOp::Sum, &x, &[0]),
        array(&[3], vec![23.0, 11.5, -23.0])
    );
    // x.reshape(4, 6, 3).sum(axis=(0, 1))
    let cube = array(&[4, 6, 3], three_columns());
    assert_eq!(
        reduce(ReduceOp::Sum, &cube, &[0, 1]),
        array(&[3], vec![23.0, 11.5, -23.0])
    );
    // x.astype(np.float32).sum(axis=0)
    let float32 = array(
        &[24, 3],
        three_columns().iter().map(|&v| v as f32).collect(),
    );
    assert_eq!(
        reduce(ReduceOp::Sum, &float32, &[0]),
        array(&[3], vec![3.0_f32, 1.5, -3.0])
    );
}

#[test]
fn a_middle_axis_also_adds_rows_in_order() {
    // np.stack([x, x * 2]).sum(axis=1), x of shape (24, 3)
    let doubled: Vec<f64> = three_columns()
        .into_iter()
        .chain(three_columns().into_iter().map(|v| v * 2.0))
        .collect();
    assert_eq!(
        reduce(ReduceOp::Sum, &array(&[2, 24, 3], doubled), &[1]),
        array(&[2, 3], vec![23.0, 11.5, -23.0, 46.0, 23.0, -46.0])
    );
}

#[test]
fn means_and_variances_over_leading_axes_match_numpy() {
    let x = array(&[24, 3], three_columns());
    assert_eq!(
        reduce(ReduceOp::Mean, &x, &[0]),
        array(
            &[3],
            vec![0.9583333333333334, 0.4791666666666667, -0.9583333333333334]
        )
    );
    assert_eq!(
        reduce(ReduceOp::Var, &x, &[0]),
        array(&[3], vec![5e+31, 1.25e+31, 5e+31])
    );
    assert_eq!(
        reduce(ReduceOp::Std, &x, &[0]),
        array(
            &[3],
            vec![7071067811865475.0, 3535533905932737.5, 7071067811865475.0]
        )
    );
    assert_eq!(
        reduce_with(ReduceOp::Var, 1.0, &x, &[0], false).unwrap(),
        array(
            &[3],
            vec![
                5.217391304347827e+31,
                1.3043478260869567e+31,
                5.217391304347827e+31
            ]
        )
    );
    // np.stack([col + 5.0, col], axis=1).var(axis=0)
    let shifted: Vec<f64> = column().iter().flat_map(|&v| [v + 5.0, v]).collect();
    assert_eq!(
        reduce(ReduceOp::Var, &array(&[24, 2], shifted), &[0]),
        array(&[2], vec![4.999999999999999e+31, 5e+31])
    );
}

#[test]
fn other_reductions_over_leading_axes_match_numpy() {
    let nan = f64::NAN;
    let w = array(
        &[3, 4],
        vec![1.0, nan, -0.0, 2.0, 0.0, 1.0, 0.0, nan, 3.0, 5.0, nan, -1.0],
    );
    let bits = |data: ArrayData| match data {
        ArrayData::Float64(a) => a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        other => panic!("not float64: {other:?}"),
    };
    let expected_bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(reduce(ReduceOp::Max, &w, &[0])),
        expected_bits(&[3.0, nan, nan, nan])
    );
    assert_eq!(
        bits(reduce(ReduceOp::Min, &w, &[0])),
        expected_bits(&[0.0, nan, nan, nan])
    );
    assert_eq!(
        bits(reduce(ReduceOp::Prod, &w, &[0])),
        expected_bits(&[0.0, nan, nan, nan])
    );
    assert_eq!(
        reduce(ReduceOp::All, &w, &[0]),
        array(&[4], vec![false, true, false, true])
    );
    assert_eq!(
        reduce(ReduceOp::Any, &w, &[0]),
        array(&[4], vec![true, true, true, true])
    );
    assert_eq!(
        reduce(ReduceOp::CountNonzero, &w, &[0]),
        array(&[4], vec![2_i64, 3, 1, 3])
    );
}

#[test]
fn signed_zeros_and_empty_runs_follow_numpy() {
    let zeros = array(&[3, 2], vec![-0.0; 6]);
    // np.full((3, 2), -0.0): sum(axis=0) [0.0, 0.0], max [-0.0, -0.0], prod [-0.0, -0.0]
    let sum = reduce(ReduceOp::Sum, &zeros, &[0]);
    let ArrayData::Float64(sum) = sum else {
        panic!("float64 sum")
    };
    assert!(sum.iter().all(|v| v.to_bits() == 0.0_f64.to_bits()));
    for op in [ReduceOp::Max, ReduceOp::Prod] {
        let ArrayData::Float64(result) = reduce(op, &zeros, &[0]) else {
            panic!("float64 result")
        };
        assert!(result.iter().all(|v| v.to_bits() == (-0.0_f64).to_bits()));
    }
    // np.zeros((0, 3)).sum(axis=0) and .prod(axis=0)
    let empty = array(&[0, 3], Vec::<f64>::new());
    assert_eq!(
        reduce(ReduceOp::Sum, &empty, &[0]),
        array(&[3], vec![0.0; 3])
    );
    assert_eq!(
        reduce(ReduceOp::Prod, &empty, &[0]),
        array(&[3], vec![1.0; 3])
    );
}

#[test]
fn only_chunks_that_keep_their_innermost_axis_go_by_rows() {
    assert!(reduces_by_rows(&[5, 4], &[0]));
    assert!(reduces_by_rows(&[5, 4, 1], &[0, 2]));
    assert!(reduces_by_rows(&[2, 5, 4], &[1]));
    assert!(!reduces_by_rows(&[5, 4], &[1]));
    assert!(!reduces_by_rows(&[5, 1], &[0]));
    assert!(!reduces_by_rows(&[5], &[0]));
    assert!(!reduces_by_rows(&[], &[]));
    // A (24, 1) column sums pairwise in NumPy too: 24.0.
    let column = array(&[24, 1], column());
    assert_eq!(
        reduce(ReduceOp::Sum, &column, &[0]),
        array(&[1], vec![24.0])
    );
    let walk = RowWalk::new(&[2, 3, 1, 4], &[1]).expect("innermost axis kept");
    assert_eq!(walk, RowWalk::new(&[2, 3, 4], &[1]).expect("same walk"));
}

#[test]
fn arg_extremes_over_leading_axes_report_global_indices() {
    let nan = f64::NAN;
    // The chunk G[2:4, 1:4, :] of a (4, 6, 3) tensor G, reduced over axes (0, 1):
    // NumPy's argmax/argmin of chunk.reshape(6, 3) along axis 0, mapped to G's
    // raveled (axis 0, axis 1) index.
    let chunk = array(
        &[2, 3, 3],
        vec![
            -5.0, 2.0, -2.0, 5.0, nan, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, nan, 5.0, 1.0,
            -3.0, 4.0,
        ],
    );
    for (op, expected) in [
        (ReduceOp::ArgMax, vec![14_i64, 14, 20]),
        (ReduceOp::ArgMin, vec![13, 14, 19]),
    ] {
        let red = Reduction { op, ddof: 0.0 };
        let state = reduce_map(red, &chunk, &[0, 1], &[4, 6, 3], &[2, 1, 0]).unwrap();
        assert_eq!(
            reduce_finish(red, &state, false).unwrap(),
            array(&[3], expected)
        );
    }
    // Ties keep the first occurrence: np.argmax(w, axis=0), np.argmin(w, axis=0).
    let w = array(&[3, 3], vec![1.0, 2.0, 2.0, 2.0, 2.0, 1.0, 2.0, 0.5, 2.0]);
    assert_eq!(
        reduce(ReduceOp::ArgMax, &w, &[0]),
        array(&[3], vec![1_i64, 0, 0])
    );
    assert_eq!(
        reduce(ReduceOp::ArgMin, &w, &[0]),
        array(&[3], vec![0_i64, 2, 1])
    );
}
