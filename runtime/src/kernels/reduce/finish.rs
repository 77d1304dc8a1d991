//! The root stage of a reduction tree: turning a fully merged state into NumPy's
//! result (dividing means, and sums of squared deviations into variances; rejecting
//! empty max/min/arg reductions as NumPy does) and dropping the reduced axes.

use super::element::{with_element_type, Accumulator, Element, FloatAccumulator};
use super::{Partial, ReduceState};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::KernelError;
use crate::ops::{ReduceOp, Reduction};
use ndarray::{ArrayD, Axis};

/// The result in the keepdims shape, for a state whose input element type is `E`.
pub(super) fn finish_partial<E: Element>(
    red: Reduction,
    state: &ReduceState,
) -> Result<ArrayData, KernelError> {
    let wrong_kind = || {
        KernelError(format!(
            "internal error: {} state holds a partial of another kind or dtype",
            state.op.name()
        ))
    };
    match (&state.partial, red.op) {
        (Partial::Total(total), ReduceOp::Sum | ReduceOp::Prod) => Ok(total.clone()),
        (Partial::Total(total), ReduceOp::Mean) => {
            // NumPy divides by the count (an intp) in float64 and casts the quotient
            // back (`true_divide(..., casting='unsafe')`).
            let total = <E::MeanAcc>::from_data(total).ok_or_else(wrong_kind)?;
            let count = state.count as f64;
            Ok(<E::MeanAcc>::into_data(
                total.mapv(|sum| sum.div_count(count)),
            ))
        }
        (Partial::Total(squares), ReduceOp::Var | ReduceOp::Std) => {
            let squares = <E::SumAcc>::from_data(squares).ok_or_else(wrong_kind)?;
            if E::DTYPE == DType::Float16 {
                return Ok(ArrayData::Float16(float16_variance(
                    red,
                    state.count,
                    squares,
                )));
            }
            Ok(<E::MeanAcc>::into_data(variance::<E::SumAcc, E::MeanAcc>(
                red,
                state.count,
                squares,
            )))
        }
        (Partial::Arg { value, .. }, ReduceOp::NanMax | ReduceOp::NanMin) => {
            reject_empty(state, red.op)?;
            Ok(value.clone())
        }
        (Partial::Extreme(extreme), ReduceOp::Max | ReduceOp::Min) => {
            reject_empty(state, red.op)?;
            Ok(extreme.clone())
        }
        (Partial::Truth(truth), ReduceOp::All | ReduceOp::Any) => {
            Ok(ArrayData::Bool(truth.clone()))
        }
        (Partial::Truth(truth), op) if op.check_failure().is_some() => match op.check_failure() {
            Some(failure) if truth.iter().any(|ok| !ok) => Err(KernelError(failure.into())),
            _ => Ok(ArrayData::Bool(truth.clone())),
        },
        (Partial::Count(count), ReduceOp::CountNonzero) => Ok(ArrayData::Int64(count.clone())),
        (Partial::Arg { index, .. }, ReduceOp::ArgMax | ReduceOp::ArgMin) => {
            reject_empty(state, red.op)?;
            Ok(ArrayData::Int64(index.clone()))
        }
        (Partial::Arg { value, index }, ReduceOp::NanArgMax | ReduceOp::NanArgMin) => {
            reject_empty(state, red.op)?;
            // The state's value is NaN only where every element was (see
            // `Direction::merge_skipping_nan`): NumPy's ValueError.
            let value = E::from_data(value).ok_or_else(wrong_kind)?;
            if value.iter().any(|v| v.is_nan()) {
                return Err(KernelError("All-NaN slice encountered".into()));
            }
            Ok(ArrayData::Int64(index.clone()))
        }
        _ => Err(wrong_kind()),
    }
}

/// `var = Σ(x - mean)² / max(count - ddof, 0)` from the summed squared deviations
/// (a `sum` state; the tiler computes the mean first, as NumPy's `_var` does), divided
/// as NumPy divides: in float64 by the (intp or float) divisor, cast back to the
/// variance's dtype, so `count <= ddof` gives inf, or nan when the sum is 0. `std` is
/// the square root of that, taken in the variance's dtype.
fn variance<S: Accumulator, A: FloatAccumulator>(
    red: Reduction,
    count: usize,
    squares: &ArrayD<S>,
) -> ArrayD<A> {
    let divisor = (count as f64 - red.ddof).max(0.0);
    let var = squares.mapv(|sum| A::from_f64(sum.to_f64() / divisor));
    if red.op == ReduceOp::Std {
        var.mapv(A::sqrt)
    } else {
        var
    }
}

/// NumPy's `_var` of float16 data, whose sum of squares is a float16 (summed in
/// float32, rounded once), divided by the count in float64 and rounded again; `std`
/// is the float16 square root of that.
fn float16_variance<S: Accumulator>(
    red: Reduction,
    count: usize,
    squares: &ArrayD<S>,
) -> ArrayD<half::f16> {
    let divisor = (count as f64 - red.ddof).max(0.0);
    squares.mapv(|sum| {
        let sum = crate::kernels::f64_to_f16(sum.to_f64());
        let var = crate::kernels::f64_to_f16(sum.to_f64() / divisor);
        if red.op == ReduceOp::Std {
            half::f16::from_f32(var.to_f32().sqrt())
        } else {
            var
        }
    })
}

/// NumPy's error for an extreme or arg-extreme over reduced axes with no elements.
fn reject_empty(state: &ReduceState, op: ReduceOp) -> Result<(), KernelError> {
    if state.count > 0 {
        return Ok(());
    }
    Err(KernelError(match op {
        ReduceOp::Max => {
            "zero-size array to reduction operation maximum which has no identity".into()
        }
        ReduceOp::Min => {
            "zero-size array to reduction operation minimum which has no identity".into()
        }
        ReduceOp::NanMax => {
            "zero-size array to reduction operation fmax which has no identity".into()
        }
        ReduceOp::NanMin => {
            "zero-size array to reduction operation fmin which has no identity".into()
        }
        // `nanargmax` says `argmax` here, as NumPy's does.
        _ => format!(
            "attempt to get {} of an empty sequence",
            op.name().trim_start_matches("nan")
        ),
    }))
}

/// Removes the (length-1) `axes` from a keepdims result.
pub(super) fn drop_axes(result: ArrayData, axes: &[usize]) -> Result<ArrayData, KernelError> {
    let dtype = result.dtype();
    with_element_type!(dtype, E => {
        let mut array = E::take_data(result).ok_or_else(|| {
            KernelError(format!("internal error: array data does not match dtype {dtype}"))
        })?;
        for &axis in axes.iter().rev() {
            if array.shape().get(axis) != Some(&1) {
                return Err(KernelError(format!(
                    "internal error: reduced axis {axis} of a result with shape {:?} is not of length 1",
                    array.shape()
                )));
            }
            array = array.index_axis_move(Axis(axis), 0);
        }
        Ok(E::into_data(array))
    })
}
