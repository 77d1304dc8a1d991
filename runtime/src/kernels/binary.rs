//! `binary`: element-wise functions of two broadcast arrays with NumPy's semantics,
//! as the table of `ops::semantics` names them (which the JIT reads too); see
//! `scalar_semantics` for the functions that are more than an operator.

use crate::array::{try_array_filled, ArrayData};
use crate::complex::{Cx, Part};
use crate::dtype::DType;
use crate::huge_alloc::ZeroIsValid;
use crate::kernels::cast::{cast_to, narrow_to_f16, widen_f16};
use crate::kernels::element::{into_c_order, with_same_dtype, Element};
use crate::kernels::elementwise::{broadcast_shape, broadcast_view, rule_error};
use crate::kernels::scalar_semantics::{
    float_floor_divide, float_fmax, float_fmin, float_maximum, float_minimum, float_remainder,
    int_floor_divide, int_power, int_remainder, Float, Int,
};
use crate::kernels::KernelError;
use crate::ops::semantics::{binary_scalar, BinaryScalar, Comparison, Logic};
use crate::ops::BinaryOp;
use ndarray::{ArrayD, Zip};

/// `np.<op>(a, b)` where `common` is the operands' promoted dtype: both are cast to
/// `op.loop_dtype(common)`, broadcast together, and combined into an array of
/// `op.result_dtype(common)`.
pub fn binary(
    op: BinaryOp,
    common: DType,
    a: &ArrayData,
    b: &ArrayData,
) -> Result<ArrayData, KernelError> {
    let loop_dtype = op
        .loop_dtype(common)
        .map_err(|err| rule_error(op.name(), common, err))?;
    let shape = broadcast_shape(a.shape(), b.shape()).ok_or_else(|| {
        KernelError::new(format!(
            "internal error: {} operands of shapes {:?} and {:?} do not broadcast",
            op.name(),
            a.shape(),
            b.shape()
        ))
    })?;
    let scalar = binary_scalar(op, loop_dtype).ok_or_else(|| no_loop(op, loop_dtype))?;
    if let BinaryScalar::Compare(comparison) = scalar {
        if exact_int_comparison(a.dtype(), b.dtype(), loop_dtype) {
            return compare_exactly(comparison, a, b, &shape).map(into_c_order);
        }
    }
    let a = cast_to(a, loop_dtype);
    let b = cast_to(b, loop_dtype);
    let result = match scalar {
        BinaryScalar::Compare(_) | BinaryScalar::Logical(_) => {
            with_same_dtype!(&*a, &*b, (x, y) => {
                apply_predicate(op, scalar, x, y, &shape).map(ArrayData::Bool)
            })
        }
        _ => arithmetic(op, scalar, loop_dtype, &a, &b, &shape),
    };
    result.map(into_c_order)
}

/// Whether comparing integers of `a` and `b` in `loop_dtype` could change a value:
/// NumPy 2 compares a uint64 with a signed integer (whose common dtype is float64),
/// and any integer with a Python int beyond its range, exactly.
pub fn exact_int_comparison(a: DType, b: DType, loop_dtype: DType) -> bool {
    let v1 = |d: DType| matches!(d, DType::Int32 | DType::Int64);
    a.is_int() && b.is_int() && (a != loop_dtype || b != loop_dtype) && !(v1(a) && v1(b))
}

/// A comparison of two integer arrays by their exact values.
fn compare_exactly(
    comparison: Comparison,
    a: &ArrayData,
    b: &ArrayData,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    fn wide(x: &ArrayData) -> Result<ArrayD<i128>, KernelError> {
        Ok(match x {
            ArrayData::Int8(v) => v.mapv(i128::from),
            ArrayData::Int16(v) => v.mapv(i128::from),
            ArrayData::Int32(v) => v.mapv(i128::from),
            ArrayData::Int64(v) => v.mapv(i128::from),
            ArrayData::UInt8(v) => v.mapv(i128::from),
            ArrayData::UInt16(v) => v.mapv(i128::from),
            ArrayData::UInt32(v) => v.mapv(i128::from),
            ArrayData::UInt64(v) => v.mapv(i128::from),
            other => {
                return Err(KernelError::new(format!(
                    "internal error: an exact integer comparison of a {} array",
                    other.dtype()
                )))
            }
        })
    }
    let compare: fn(i128, i128) -> bool = match comparison {
        Comparison::Equal => |x, y| x == y,
        Comparison::NotEqual => |x, y| x != y,
        Comparison::Less => |x, y| x < y,
        Comparison::LessEqual => |x, y| x <= y,
        Comparison::Greater => |x, y| x > y,
        Comparison::GreaterEqual => |x, y| x >= y,
    };
    Ok(ArrayData::Bool(zip_with(
        &wide(a)?,
        &wide(b)?,
        shape,
        compare,
    )?))
}

fn arithmetic(
    op: BinaryOp,
    scalar: BinaryScalar,
    loop_dtype: DType,
    a: &ArrayData,
    b: &ArrayData,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    match (a, b) {
        (ArrayData::Bool(x), ArrayData::Bool(y)) => bool_binary(op, scalar, x, y, shape),
        (ArrayData::Int8(x), ArrayData::Int8(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::Int16(x), ArrayData::Int16(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::Int32(x), ArrayData::Int32(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::Int64(x), ArrayData::Int64(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::UInt8(x), ArrayData::UInt8(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::UInt16(x), ArrayData::UInt16(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::UInt32(x), ArrayData::UInt32(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::UInt64(x), ArrayData::UInt64(y)) => int_binary(op, scalar, x, y, shape),
        (ArrayData::Float16(x), ArrayData::Float16(y)) => {
            let result = float_binary(op, scalar, &widen_f16(x), &widen_f16(y), shape)?;
            Ok(narrow_to_f16(result))
        }
        (ArrayData::Float32(x), ArrayData::Float32(y)) => float_binary(op, scalar, x, y, shape),
        (ArrayData::Float64(x), ArrayData::Float64(y)) => float_binary(op, scalar, x, y, shape),
        (ArrayData::Complex64(x), ArrayData::Complex64(y)) => {
            complex_binary(op, scalar, x, y, shape)
        }
        (ArrayData::Complex128(x), ArrayData::Complex128(y)) => {
            complex_binary(op, scalar, x, y, shape)
        }
        _ => Err(no_loop(op, loop_dtype)),
    }
}

fn no_loop(op: BinaryOp, dtype: DType) -> KernelError {
    KernelError::new(format!(
        "internal error: no {} loop computes in {dtype}",
        op.name()
    ))
}

/// `f(x, y)` over `x` and `y` broadcast to `shape`.
/// The output is allocated first, fallibly (`crate::array::try_array_filled`).
fn zip_with<T: Copy, R: ZeroIsValid>(
    x: &ArrayD<T>,
    y: &ArrayD<T>,
    shape: &[usize],
    f: impl Fn(T, T) -> R,
) -> Result<ArrayD<R>, KernelError> {
    let x = broadcast_view(x, shape)?;
    let y = broadcast_view(y, shape)?;
    let mut out = try_array_filled(shape, R::ZERO_BITS)?;
    Zip::from(&mut out)
        .and(&x)
        .and(&y)
        .for_each(|out, &a, &b| *out = f(a, b));
    Ok(out)
}

/// Comparisons follow IEEE (every comparison with NaN is false except `!=`); logical
/// operations read nonzero (and NaN) as true.
fn apply_predicate<T: Element>(
    op: BinaryOp,
    scalar: BinaryScalar,
    x: &ArrayD<T>,
    y: &ArrayD<T>,
    shape: &[usize],
) -> Result<ArrayD<bool>, KernelError> {
    use BinaryScalar::{Compare, Logical};
    match scalar {
        Compare(Comparison::Equal) => zip_with(x, y, shape, |a, b| a == b),
        Compare(Comparison::NotEqual) => zip_with(x, y, shape, |a, b| a != b),
        Compare(Comparison::Less) => zip_with(x, y, shape, |a, b| a < b),
        Compare(Comparison::LessEqual) => zip_with(x, y, shape, |a, b| a <= b),
        Compare(Comparison::Greater) => zip_with(x, y, shape, |a, b| a > b),
        Compare(Comparison::GreaterEqual) => zip_with(x, y, shape, |a, b| a >= b),
        Logical(Logic::And) => zip_with(x, y, shape, |a, b| a.is_truthy() && b.is_truthy()),
        Logical(Logic::Or) => zip_with(x, y, shape, |a, b| a.is_truthy() || b.is_truthy()),
        Logical(Logic::Xor) => zip_with(x, y, shape, |a, b| a.is_truthy() != b.is_truthy()),
        _ => Err(no_loop(op, T::DTYPE)),
    }
}

fn float_binary<F: Float>(
    op: BinaryOp,
    scalar: BinaryScalar,
    x: &ArrayD<F>,
    y: &ArrayD<F>,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    use BinaryScalar as S;
    let result = match scalar {
        S::Add => zip_with(x, y, shape, |a, b| a + b),
        S::Subtract => zip_with(x, y, shape, |a, b| a - b),
        S::Multiply => zip_with(x, y, shape, |a, b| a * b),
        S::Divide => zip_with(x, y, shape, |a, b| a / b),
        S::Extremum { max, nan_wins } => match (max, nan_wins) {
            (true, true) => zip_with(x, y, shape, float_maximum),
            (false, true) => zip_with(x, y, shape, float_minimum),
            (true, false) => zip_with(x, y, shape, float_fmax),
            (false, false) => zip_with(x, y, shape, float_fmin),
        },
        S::Function(BinaryOp::FloorDivide) => zip_with(x, y, shape, float_floor_divide),
        S::Function(BinaryOp::Remainder) => zip_with(x, y, shape, float_remainder),
        S::Function(BinaryOp::Power) => zip_with(x, y, shape, F::powf),
        S::Function(BinaryOp::Arctan2) => zip_with(x, y, shape, F::atan2),
        S::Function(BinaryOp::Hypot) => zip_with(x, y, shape, F::hypot),
        _ => Err(no_loop(op, F::DTYPE)),
    }?;
    Ok(F::into_data(result))
}

/// Complex arithmetic as NumPy's loops (see `crate::complex`); `maximum` and
/// `minimum` keep the first NaN operand, `fmax` and `fmin` the other one, and compare
/// lexicographically.
fn complex_binary<T: Part>(
    op: BinaryOp,
    scalar: BinaryScalar,
    x: &ArrayD<Cx<T>>,
    y: &ArrayD<Cx<T>>,
    shape: &[usize],
) -> Result<ArrayData, KernelError>
where
    Cx<T>: Element,
{
    use BinaryScalar as S;
    let result = match scalar {
        S::Add => zip_with(x, y, shape, |a, b| a + b),
        S::Subtract => zip_with(x, y, shape, |a, b| a - b),
        S::Multiply => zip_with(x, y, shape, |a, b| a * b),
        S::Divide => zip_with(x, y, shape, |a, b| a / b),
        S::Extremum { max, nan_wins } => zip_with(x, y, shape, move |a, b| {
            let first_wins = if max { a >= b } else { a <= b };
            let keep_first = if nan_wins {
                a.is_nan() || first_wins
            } else {
                b.is_nan() || first_wins
            };
            if keep_first {
                a
            } else {
                b
            }
        }),
        S::Function(BinaryOp::Power) => zip_with(x, y, shape, Cx::pow),
        _ => Err(no_loop(op, Cx::<T>::DTYPE)),
    }?;
    Ok(Cx::<T>::into_data(result))
}

fn int_binary<I: Int>(
    op: BinaryOp,
    scalar: BinaryScalar,
    x: &ArrayD<I>,
    y: &ArrayD<I>,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    use BinaryScalar as S;
    let result = match scalar {
        S::Add => zip_with(x, y, shape, I::wrapping_add),
        S::Subtract => zip_with(x, y, shape, I::wrapping_sub),
        S::Multiply => zip_with(x, y, shape, I::wrapping_mul),
        S::Extremum { max: true, .. } => zip_with(x, y, shape, Ord::max),
        S::Extremum { max: false, .. } => zip_with(x, y, shape, Ord::min),
        S::Bits(Logic::And) => zip_with(x, y, shape, |a, b| a & b),
        S::Bits(Logic::Or) => zip_with(x, y, shape, |a, b| a | b),
        S::Bits(Logic::Xor) => zip_with(x, y, shape, |a, b| a ^ b),
        S::Function(BinaryOp::FloorDivide) => zip_with(x, y, shape, int_floor_divide),
        S::Function(BinaryOp::Remainder) => zip_with(x, y, shape, int_remainder),
        S::Function(BinaryOp::Power) => {
            reject_negative_exponents(y, shape)?;
            zip_with(x, y, shape, int_power)
        }
        _ => Err(no_loop(op, I::DTYPE)),
    }?;
    Ok(I::into_data(result))
}

/// NumPy raises on a negative integer exponent, but only if the loop reaches it: an
/// empty result raises nothing. When the result is not empty every exponent is used.
fn reject_negative_exponents<I: Int>(
    exponents: &ArrayD<I>,
    shape: &[usize],
) -> Result<(), KernelError> {
    let result_is_empty = shape.contains(&0);
    if !result_is_empty && exponents.iter().any(|&e| e < I::ZERO) {
        return Err(KernelError::new(
            "Integers to negative integer powers are not allowed.",
        ));
    }
    Ok(())
}

/// Bool arithmetic is bitwise (the table maps `+`, `maximum`, ... to it).
fn bool_binary(
    op: BinaryOp,
    scalar: BinaryScalar,
    x: &ArrayD<bool>,
    y: &ArrayD<bool>,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    let result = match scalar {
        BinaryScalar::Bits(Logic::Or) => zip_with(x, y, shape, |a, b| a | b),
        BinaryScalar::Bits(Logic::And) => zip_with(x, y, shape, |a, b| a & b),
        BinaryScalar::Bits(Logic::Xor) => zip_with(x, y, shape, |a, b| a ^ b),
        _ => Err(no_loop(op, DType::Bool)),
    }?;
    Ok(ArrayData::Bool(result))
}

#[cfg(test)]
mod tests;
