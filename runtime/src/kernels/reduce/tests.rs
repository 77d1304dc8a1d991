//! Single-chunk reductions against values computed by NumPy 2.4 (pasted in).

use super::element::{Accumulator, Element};
use super::{reduce_finish, reduce_map};
use crate::array::ArrayData;
use crate::kernels::KernelError;
use crate::ops::{BinaryOp, ReduceOp, Reduction, UnaryOp};
use ndarray::{ArrayD, IxDyn};

pub(super) fn array<T: Element>(shape: &[usize], values: Vec<T>) -> ArrayData {
    T::into_data(ArrayD::from_shape_vec(IxDyn(shape), values).expect("test data fits its shape"))
}

pub(super) fn reduce_with(
    op: ReduceOp,
    ddof: f64,
    x: &ArrayData,
    axes: &[usize],
    keepdims: bool,
) -> Result<ArrayData, KernelError> {
    let red = Reduction { op, ddof };
    if matches!(op, ReduceOp::Var | ReduceOp::Std) {
        return moments_with(red, x, axes, keepdims);
    }
    let offset = vec![0; x.ndim()];
    let state = reduce_map(red, x, axes, x.shape(), &offset)?;
    reduce_finish(red, &state, keepdims)
}

/// `var`/`std` as the tiler builds them: the mean (keepdims), `square(x - mean)`, a
/// `sum` state of that, finished as `red`.
pub(super) fn moments_with(
    red: Reduction,
    x: &ArrayData,
    axes: &[usize],
    keepdims: bool,
) -> Result<ArrayData, KernelError> {
    let dtype = red.op.result_dtype(x.dtype());
    let mean = reduce_with(ReduceOp::Mean, 0.0, x, axes, true)?;
    let deviation = crate::kernels::binary(BinaryOp::Subtract, dtype, x, &mean)?;
    let squared = crate::kernels::unary(UnaryOp::Square, &deviation)?;
    let sum = Reduction {
        op: ReduceOp::Sum,
        ddof: 0.0,
    };
    let offset = vec![0; x.ndim()];
    let state = reduce_map(sum, &squared, axes, x.shape(), &offset)?;
    reduce_finish(red, &state, keepdims)
}

pub(super) fn reduce(op: ReduceOp, x: &ArrayData, axes: &[usize]) -> ArrayData {
    reduce_with(op, 0.0, x, axes, false).expect("reduction succeeds")
}

/// `((np.arange(24) * 7) % 11 - 5).reshape(2, 3, 4)`.
fn ints() -> Vec<i64> {
    (0..24).map(|i| (i * 7) % 11 - 5).collect()
}

fn ints_3d() -> ArrayData {
    array(&[2, 3, 4], ints())
}

fn quarters_3d() -> ArrayData {
    array(&[2, 3, 4], ints().iter().map(|&v| v as f64 / 4.0).collect())
}

/// `(np.arange(n) * 7919 % 1009) / 13.0 - 37.5`: a sum with plenty of rounding.
fn rounding_data(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| (i * 7919 % 1009) as f64 / 13.0 - 37.5)
        .collect()
}

#[test]
fn float_sums_are_bit_identical_to_numpy_pairwise_sums() {
    // (n, np.sum(x), np.sum(x.astype(np.float32))), printed by NumPy
    let expected: [(usize, f64, f32); 14] = [
        (1, -37.5, -37.5),
        (7, -43.96153846153847, -43.96154),
        (8, -8.615384615384624, -8.615385),
        (9, 14.961538461538456, 14.961538),
        (16, 5.692307692307693, 5.6923103),
        (17, 12.730769230769234, 12.730772),
        (127, 186.7307692307692, 186.73077),
        (128, 206.8461538461538, 206.84615),
        (129, 215.1923076923077, 215.1923),
        (255, 317.2692307692307, 317.26926),
        (256, 305.61538461538464, 305.6154),
        (1000, 1321.3846153846152, 1321.3848),
        (5000, 6387.6923076923085, 6387.6924),
        (20000, 25444.53846153846, 25444.54),
    ];
    for (n, sum64, sum32) in expected {
        let data = rounding_data(n);
        assert_eq!(
            f64::sum_run(&data).to_bits(),
            sum64.to_bits(),
            "f64, n = {n}"
        );
        let data32: Vec<f32> = data.iter().map(|&v| v as f32).collect();
        assert_eq!(
            f32::sum_run(&data32).to_bits(),
            sum32.to_bits(),
            "f32, n = {n}"
        );
        let through_kernel = reduce(ReduceOp::Sum, &array(&[n], data), &[0]);
        assert_eq!(
            through_kernel,
            ArrayData::from_scalar(crate::Scalar::Float64(sum64))
        );
    }
}

#[test]
fn sum_mean_var_std_match_numpy() {
    assert_eq!(
        reduce(ReduceOp::Sum, &quarters_3d(), &[1]),
        array(&[2, 4], vec![-2.0, 0.5, 0.25, 0.0, 0.5, 0.25, 0.0, -0.25])
    );
    let int32 = array(&[2, 3, 4], ints().iter().map(|&v| v as i32).collect());
    assert_eq!(
        reduce(ReduceOp::Mean, &int32, &[2, 0]),
        array(&[3], vec![0.75, -0.125, -1.0])
    );
    let var = reduce_with(ReduceOp::Var, 1.0, &quarters_3d(), &[2], false).unwrap();
    let expected = [
        1.2083333333333333,
        0.5208333333333334,
        0.8072916666666666,
        0.5208333333333334,
        0.8072916666666666,
        0.8072916666666666,
    ];
    assert_eq!(var, array(&[2, 3], expected.to_vec()));
    let float32 = array(&[2, 3, 4], ints().iter().map(|&v| v as f32 / 4.0).collect());
    assert_eq!(
        reduce(ReduceOp::Std, &float32, &[0, 1, 2]),
        array(&[], vec![0.8046496_f32])
    );
    let float32_ints = array(&[2, 3, 4], ints().iter().map(|&v| v as f32).collect());
    assert_eq!(
        reduce(ReduceOp::Mean, &float32_ints, &[1, 2]),
        array(&[2], vec![-0.41666666_f32, 0.16666667])
    );
    let var32 = [
        12.25, 4.0, 12.25, 4.0, 4.0, 12.25, 4.0, 4.0, 12.25, 4.0, 4.0, 12.25_f32,
    ];
    assert_eq!(
        reduce(ReduceOp::Var, &float32_ints, &[0]),
        array(&[3, 4], var32.to_vec())
    );
}

#[test]
fn extremes_and_arg_extremes_match_numpy() {
    let max = [2, 2, 5, 5, 1, 4, 4, 0, 3, 3, -1, 2_i64];
    assert_eq!(
        reduce(ReduceOp::Max, &ints_3d(), &[0]),
        array(&[3, 4], max.to_vec())
    );
    assert_eq!(
        reduce(ReduceOp::ArgMax, &ints_3d(), &[0, 2]),
        array(&[3], vec![3_i64, 2, 1])
    );
    assert_eq!(
        reduce(ReduceOp::ArgMin, &ints_3d(), &[1]),
        array(&[2, 4], vec![0_i64, 1, 0, 2, 1, 0, 2, 1])
    );
    let with_nan = array(&[5], vec![1.0, f64::NAN, 3.0, f64::NAN, -2.0]);
    assert_eq!(
        reduce(ReduceOp::ArgMax, &with_nan, &[0]),
        array(&[], vec![1_i64])
    );
    assert_eq!(
        reduce(ReduceOp::ArgMin, &with_nan, &[0]),
        array(&[], vec![1_i64])
    );
    for op in [ReduceOp::Max, ReduceOp::Min] {
        let ArrayData::Float64(result) = reduce(op, &with_nan, &[0]) else {
            panic!("max of float64 is float64");
        };
        assert!(result.iter().all(|v| v.is_nan()));
    }
}

#[test]
fn logical_reductions_and_products_match_numpy() {
    let above = array(&[2, 3, 4], ints().iter().map(|&v| v > -3).collect());
    assert_eq!(
        reduce(ReduceOp::Prod, &above, &[2]),
        array(&[2, 3], vec![0_i64, 0, 0, 1, 0, 0])
    );
    let all = [
        false, true, true, true, false, false, true, false, false, true, false, false,
    ];
    assert_eq!(
        reduce(ReduceOp::All, &above, &[0]),
        array(&[3, 4], all.to_vec())
    );
    let big = array(&[2, 3, 4], ints().iter().map(|&v| v > 3).collect());
    let any = [
        false, false, true, true, false, true, true, false, false, false, false, false,
    ];
    assert_eq!(
        reduce(ReduceOp::Any, &big, &[0]),
        array(&[3, 4], any.to_vec())
    );
    assert_eq!(
        reduce(ReduceOp::CountNonzero, &ints_3d(), &[0, 1]),
        array(&[4], vec![6_i64, 6, 5, 5])
    );
    let nonzero: Vec<i32> = ints()
        .iter()
        .filter(|&&v| v != 0)
        .map(|&v| v as i32)
        .collect();
    let n = nonzero.len();
    assert_eq!(
        reduce(ReduceOp::Prod, &array(&[n], nonzero), &[0]),
        array(&[], vec![-2073600000_i64])
    );
    // np.sum(np.array([2**63 - 1, 1])) wraps around.
    assert_eq!(
        reduce(ReduceOp::Sum, &array(&[2], vec![i64::MAX, 1]), &[0]),
        array(&[], vec![i64::MIN])
    );
}

#[test]
fn empty_reductions_follow_numpy() {
    let empty = array::<f64>(&[0], vec![]);
    assert_eq!(reduce(ReduceOp::Sum, &empty, &[0]), array(&[], vec![0.0]));
    let empty_bool = array::<bool>(&[0], vec![]);
    assert_eq!(
        reduce(ReduceOp::Prod, &empty_bool, &[0]),
        array(&[], vec![1_i64])
    );
    let ArrayData::Float64(mean) = reduce(ReduceOp::Mean, &empty, &[0]) else {
        panic!("mean of float64 is float64");
    };
    assert!(mean.iter().all(|v| v.is_nan()));
    // np.sum(np.zeros((2, 0)), axis=1)
    let wide = array::<f64>(&[2, 0], vec![]);
    assert_eq!(
        reduce(ReduceOp::Sum, &wide, &[1]),
        array(&[2], vec![0.0, 0.0])
    );
    let messages = [
        (
            ReduceOp::Max,
            "zero-size array to reduction operation maximum which has no identity",
        ),
        (
            ReduceOp::Min,
            "zero-size array to reduction operation minimum which has no identity",
        ),
        (
            ReduceOp::ArgMax,
            "attempt to get argmax of an empty sequence",
        ),
        (
            ReduceOp::ArgMin,
            "attempt to get argmin of an empty sequence",
        ),
    ];
    for (op, message) in messages {
        assert_eq!(
            reduce_with(op, 0.0, &wide, &[1], false),
            Err(KernelError(message.into()))
        );
        // np.max(np.zeros((0, 0)), axis=1) fails too, although the result is empty.
        let none = array::<f64>(&[0, 0], vec![]);
        assert!(reduce_with(op, 0.0, &none, &[1], false).is_err());
        // np.max(np.zeros((0, 3)), axis=1) is an empty array.
        let tall = array::<f64>(&[0, 3], vec![]);
        assert_eq!(
            reduce_with(op, 0.0, &tall, &[1], false).unwrap().shape(),
            &[0]
        );
    }
}

#[test]
fn variance_with_too_few_degrees_of_freedom_is_inf_or_nan() {
    // np.var([1., 2.], ddof=2) == inf; np.var([1., 1.], ddof=2) is nan; ddof=3 gives inf.
    let pair = array(&[2], vec![1.0, 2.0]);
    let same = array(&[2], vec![1.0, 1.0]);
    let var = |x: &ArrayData, ddof: f64| match reduce_with(ReduceOp::Var, ddof, x, &[0], false) {
        Ok(ArrayData::Float64(v)) => v.iter().copied().next().unwrap_or(0.0),
        other => panic!("unexpected {other:?}"),
    };
    assert_eq!(var(&pair, 2.0), f64::INFINITY);
    assert!(var(&same, 2.0).is_nan());
    assert_eq!(var(&pair, 3.0), f64::INFINITY);
}

#[test]
fn keepdims_keeps_reduced_axes_as_length_one() {
    let result = reduce_with(ReduceOp::Sum, 0.0, &ints_3d(), &[0, 2], true).unwrap();
    assert_eq!(result.shape(), &[1, 3, 1]);
}

#[test]
fn bad_axes_are_errors_not_panics() {
    let x = ints_3d();
    assert!(reduce_with(ReduceOp::Sum, 0.0, &x, &[3], false).is_err());
    assert!(reduce_with(ReduceOp::Sum, 0.0, &x, &[1, 1], false).is_err());
    let red = Reduction {
        op: ReduceOp::ArgMax,
        ddof: 0.0,
    };
    assert!(reduce_map(red, &x, &[0], &[2, 3], &[0, 0]).is_err());
    assert!(reduce_map(red, &x, &[0], &[2, 3, 4], &[1, 0, 0]).is_err());
}

#[test]
fn states_report_their_size_and_refuse_to_merge_with_strangers() {
    let sum = Reduction {
        op: ReduceOp::Sum,
        ddof: 0.0,
    };
    let origin = [0, 0, 0];
    let state = reduce_map(sum, &quarters_3d(), &[1], &[2, 3, 4], &origin).unwrap();
    assert_eq!(state.keepdims_shape(), &[2, 1, 4]);
    assert_eq!(state.count(), 3);
    assert_eq!(state.nbytes(), 8 * 8);
    let argmax = Reduction {
        op: ReduceOp::ArgMax,
        ddof: 0.0,
    };
    let int32 = array(&[2, 3, 4], ints().iter().map(|&v| v as i32).collect());
    let arg_state = reduce_map(argmax, &int32, &[1], &[2, 3, 4], &origin).unwrap();
    assert_eq!(arg_state.nbytes(), 8 * 4 + 8 * 8);

    assert!(super::reduce_combine(sum, &[]).is_err());
    assert!(super::reduce_combine(sum, &[&state, &arg_state]).is_err());
    let other_axes = reduce_map(sum, &quarters_3d(), &[2], &[2, 3, 4], &origin).unwrap();
    assert!(super::reduce_combine(sum, &[&state, &other_axes]).is_err());
    assert!(reduce_finish(argmax, &state, false).is_err());
}
