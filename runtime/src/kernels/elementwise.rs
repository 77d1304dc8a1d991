//! Element-wise kernels of one and three inputs (`unary`, `where_`) and the NumPy
//! broadcasting they share with the binary kernels in `binary.rs`.

use crate::array::ArrayData;
use crate::complex::{Cx, Part};
use crate::dtype::DType;
use crate::kernels::cast::{cast_to, narrow_to_f16, widen_f16};
use crate::kernels::element::{into_c_order, with_same_dtype, Element};
use crate::kernels::scalar_semantics::{float_sign, int_reciprocal, Float, Int};
use crate::kernels::KernelError;
use crate::ops::{DTypeRuleError, UnaryOp};
use crate::scalar::Scalar;
use crate::with_array;
use ndarray::{ArrayD, ArrayViewD, IxDyn, Zip};

/// The shape two operands broadcast to under NumPy's rules (axes aligned from the
/// right; an axis of length 1 stretches), or `None` if they are incompatible.
pub fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let ndim = a.len().max(b.len());
    let axis_of = |shape: &[usize], i: usize| {
        // Missing leading axes count as length 1.
        (i + shape.len()).checked_sub(ndim).map_or(1, |j| shape[j])
    };
    (0..ndim)
        .map(|i| match (axis_of(a, i), axis_of(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

pub(crate) fn rule_error(what: &str, dtype: DType, err: DTypeRuleError) -> KernelError {
    match err {
        DTypeRuleError::NoLoop => {
            KernelError::new(format!("{what} is not supported for dtype {dtype}"))
        }
        DTypeRuleError::UnsupportedResult(result) => KernelError::new(format!(
            "not supported yet: {what} of {dtype} gives {result} in NumPy"
        )),
    }
}

/// A read-only view of `array` stretched to `shape`.
pub(crate) fn broadcast_view<'a, T>(
    array: &'a ArrayD<T>,
    shape: &[usize],
) -> Result<ArrayViewD<'a, T>, KernelError> {
    array.broadcast(IxDyn(shape)).ok_or_else(|| {
        KernelError::new(format!(
            "internal error: shape {:?} does not broadcast to {shape:?}",
            array.shape()
        ))
    })
}

fn internal_unary(op: UnaryOp, dtype: DType) -> KernelError {
    KernelError::new(format!(
        "internal error: no {} loop computes in {dtype}",
        op.name()
    ))
}

/// An element-wise function of one array, `np.<op>(x)`, computed in
/// `op.result_dtype(x.dtype())` (the input is cast to it first, except by the
/// predicates, which read the input as it is).
pub fn unary(op: UnaryOp, x: &ArrayData) -> Result<ArrayData, KernelError> {
    let out_dtype = op
        .result_dtype(x.dtype())
        .map_err(|err| rule_error(op.name(), x.dtype(), err))?;
    if let Some(predicate) = unary_predicate(op, x) {
        return Ok(ArrayData::Bool(predicate));
    }
    if let Some(result) = complex_unary(op, x, out_dtype)? {
        return Ok(into_c_order(result));
    }
    let x = cast_to(x, out_dtype);
    let result = match &*x {
        ArrayData::Bool(a) => bool_unary(op, a).map(ArrayData::Bool),
        ArrayData::Int8(a) => int_unary(op, a).map(ArrayData::Int8),
        ArrayData::Int16(a) => int_unary(op, a).map(ArrayData::Int16),
        ArrayData::Int32(a) => int_unary(op, a).map(ArrayData::Int32),
        ArrayData::Int64(a) => int_unary(op, a).map(ArrayData::Int64),
        ArrayData::UInt8(a) => int_unary(op, a).map(ArrayData::UInt8),
        ArrayData::UInt16(a) => int_unary(op, a).map(ArrayData::UInt16),
        ArrayData::UInt32(a) => int_unary(op, a).map(ArrayData::UInt32),
        ArrayData::UInt64(a) => int_unary(op, a).map(ArrayData::UInt64),
        ArrayData::Float16(a) => float_unary(op, &widen_f16(a))
            .map(ArrayData::Float32)
            .map(narrow_to_f16),
        ArrayData::Float32(a) => float_unary(op, a).map(ArrayData::Float32),
        ArrayData::Float64(a) => float_unary(op, a).map(ArrayData::Float64),
        ArrayData::Complex64(_) | ArrayData::Complex128(_) => Err(internal_unary(op, x.dtype())),
    };
    result.map(into_c_order)
}

/// The ops on complex inputs, and `real`, `imag`, `conjugate` and `angle` of real
/// ones (the input as it is, zeros, the input, `arctan2(0, x)`); `None` for the
/// other ops on real inputs.
fn complex_unary(
    op: UnaryOp,
    x: &ArrayData,
    out_dtype: DType,
) -> Result<Option<ArrayData>, KernelError> {
    use UnaryOp::*;
    Ok(Some(match x {
        ArrayData::Complex64(a) => complex_values(op, a)?,
        ArrayData::Complex128(a) => complex_values(op, a)?,
        _ => match op {
            Real | Conjugate => cast_to(x, out_dtype).into_owned(),
            Imag => ArrayData::try_full(x.shape(), Scalar::from_i64(0, out_dtype))?,
            Angle => {
                let angles = match crate::kernels::cast::cast(x, DType::Float64) {
                    ArrayData::Float64(a) => a.mapv(|v| 0.0f64.atan2(v)),
                    _ => return Err(internal_unary(op, x.dtype())),
                };
                crate::kernels::cast::cast(&ArrayData::Float64(angles), out_dtype)
            }
            _ => return Ok(None),
        },
    }))
}

/// `op` of a complex array (complex64 computes in float32, as NumPy's loops).
fn complex_values<T>(op: UnaryOp, a: &ArrayD<Cx<T>>) -> Result<ArrayData, KernelError>
where
    T: Part + Element,
    Cx<T>: Element,
{
    use UnaryOp::*;
    let complex = |f: fn(Cx<T>) -> Cx<T>| Cx::<T>::into_data(a.mapv(f));
    let real = |f: fn(Cx<T>) -> T| T::into_data(a.mapv(f));
    Ok(match op {
        Negative => complex(|v| -v),
        Positive => complex(|v| v),
        Conjugate => complex(Cx::conj),
        Sqrt => complex(Cx::sqrt),
        Square => complex(|v| v * v),
        Exp => complex(Cx::exp),
        Log => complex(Cx::ln),
        Rint => complex(Cx::rint),
        Reciprocal => complex(Cx::recip),
        Absolute => real(Cx::abs),
        Real => real(Cx::re),
        Imag => real(Cx::im),
        Angle => real(Cx::arg),
        _ => return Err(internal_unary(op, Cx::<T>::DTYPE)),
    })
}

/// The predicates, which read any dtype and give bool; `None` for other operations.
fn unary_predicate(op: UnaryOp, x: &ArrayData) -> Option<ArrayD<bool>> {
    fn apply<T: Element>(op: UnaryOp, a: &ArrayD<T>) -> Option<ArrayD<bool>> {
        Some(match op {
            UnaryOp::IsNan => a.mapv(T::is_nan),
            UnaryOp::IsInf => a.mapv(T::is_infinite),
            UnaryOp::IsFinite => a.mapv(T::is_finite),
            UnaryOp::LogicalNot => a.mapv(|v| !v.is_truthy()),
            _ => return None,
        })
    }
    with_array!(x, a => apply(op, a))
}

fn float_unary<F: Float>(op: UnaryOp, a: &ArrayD<F>) -> Result<ArrayD<F>, KernelError> {
    use UnaryOp::*;
    Ok(match op {
        Negative => a.mapv(|v| -v),
        Positive => a.clone(),
        Absolute => a.mapv(F::abs),
        Sqrt => a.mapv(F::sqrt),
        Square => a.mapv(|v| v * v),
        Exp => a.mapv(F::exp),
        Expm1 => a.mapv(F::exp_m1),
        Log => a.mapv(F::ln),
        Log1p => a.mapv(F::ln_1p),
        Log2 => a.mapv(F::log2),
        Log10 => a.mapv(F::log10),
        Sin => a.mapv(F::sin),
        Cos => a.mapv(F::cos),
        Tan => a.mapv(F::tan),
        Arcsin => a.mapv(F::asin),
        Arccos => a.mapv(F::acos),
        Arctan => a.mapv(F::atan),
        Sinh => a.mapv(F::sinh),
        Cosh => a.mapv(F::cosh),
        Tanh => a.mapv(F::tanh),
        Floor => a.mapv(F::floor),
        Ceil => a.mapv(F::ceil),
        Trunc => a.mapv(F::trunc),
        Rint => a.mapv(F::rint),
        Sign => a.mapv(float_sign),
        Reciprocal => a.mapv(|v| F::ONE / v),
        IsNan | IsInf | IsFinite | LogicalNot | Invert | Real | Imag | Conjugate | Angle => {
            return Err(internal_unary(op, F::DTYPE))
        }
    })
}

fn int_unary<I: Int>(op: UnaryOp, a: &ArrayD<I>) -> Result<ArrayD<I>, KernelError> {
    use UnaryOp::*;
    Ok(match op {
        Negative => a.mapv(I::wrapping_neg),
        // Integers are already integral, and NumPy 2 keeps their dtype.
        Positive | Floor | Ceil | Trunc => a.clone(),
        Absolute => a.mapv(I::wrapping_abs),
        Square => a.mapv(|v| v.wrapping_mul(v)),
        Sign => a.mapv(I::signum),
        Reciprocal => a.mapv(int_reciprocal),
        Invert => a.mapv(|v| !v),
        _ => return Err(internal_unary(op, I::DTYPE)),
    })
}

fn bool_unary(op: UnaryOp, a: &ArrayD<bool>) -> Result<ArrayD<bool>, KernelError> {
    use UnaryOp::*;
    match op {
        Absolute | Floor | Ceil | Trunc => Ok(a.clone()),
        Invert => Ok(a.mapv(|v| !v)),
        _ => Err(internal_unary(op, DType::Bool)),
    }
}

/// `np.where(cond, x, y)` with all three broadcast together. `x` and `y` must share a
/// dtype (the compiler casts them); `cond` is read as bool.
pub fn where_(cond: &ArrayData, x: &ArrayData, y: &ArrayData) -> Result<ArrayData, KernelError> {
    let incompatible = || {
        KernelError::new(format!(
            "internal error: where() operands of shapes {:?}, {:?}, {:?} do not broadcast",
            cond.shape(),
            x.shape(),
            y.shape()
        ))
    };
    let shape = broadcast_shape(cond.shape(), x.shape())
        .and_then(|shape| broadcast_shape(&shape, y.shape()))
        .ok_or_else(incompatible)?;
    let cond = cast_to(cond, DType::Bool);
    let ArrayData::Bool(cond) = &*cond else {
        return Err(KernelError::new(
            "internal error: cast to bool gave another dtype",
        ));
    };
    let cond = broadcast_view(cond, &shape)?;
    let result =
        with_same_dtype!(x, y, (a, b) => select(&cond, a, b, &shape).map(Element::into_data));
    result.map(into_c_order)
}

fn select<T: Element>(
    cond: &ArrayViewD<'_, bool>,
    a: &ArrayD<T>,
    b: &ArrayD<T>,
    shape: &[usize],
) -> Result<ArrayD<T>, KernelError> {
    let a = broadcast_view(a, shape)?;
    let b = broadcast_view(b, shape)?;
    Ok(Zip::from(cond)
        .and(&a)
        .and(&b)
        .map_collect(|&c, &x, &y| if c { x } else { y }))
}

#[cfg(test)]
mod tests;
