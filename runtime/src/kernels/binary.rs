//! `binary`: element-wise functions of two broadcast arrays with NumPy's semantics
//! (see `scalar_semantics` for the ones that are more than an operator).

use crate::array::{try_array_filled, ArrayData};
use crate::dtype::DType;
use crate::huge_alloc::ZeroIsValid;
use crate::kernels::cast::cast_to;
use crate::kernels::element::{into_c_order, with_same_dtype, Element};
use crate::kernels::elementwise::{broadcast_shape, broadcast_view, rule_error};
use crate::kernels::scalar_semantics::{
    float_floor_divide, float_fmax, float_fmin, float_maximum, float_minimum, float_remainder,
    int_floor_divide, int_power, int_remainder, Float, Int,
};
use crate::kernels::KernelError;
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
    let a = cast_to(a, loop_dtype);
    let b = cast_to(b, loop_dtype);
    let result = if let Some(predicate) = Predicate::of(op) {
        with_same_dtype!(&*a, &*b, (x, y) => {
            apply_predicate(predicate, x, y, &shape).map(ArrayData::Bool)
        })
    } else {
        arithmetic(op, loop_dtype, &a, &b, &shape)
    };
    result.map(into_c_order)
}

fn arithmetic(
    op: BinaryOp,
    loop_dtype: DType,
    a: &ArrayData,
    b: &ArrayData,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    match (a, b) {
        (ArrayData::Bool(x), ArrayData::Bool(y)) => bool_binary(op, x, y, shape),
        (ArrayData::Int32(x), ArrayData::Int32(y)) => int_binary(op, x, y, shape),
        (ArrayData::Int64(x), ArrayData::Int64(y)) => int_binary(op, x, y, shape),
        (ArrayData::Float32(x), ArrayData::Float32(y)) => float_binary(op, x, y, shape),
        (ArrayData::Float64(x), ArrayData::Float64(y)) => float_binary(op, x, y, shape),
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

/// The operations that give bool whatever dtype they compare in.
#[derive(Clone, Copy)]
enum Predicate {
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

impl Predicate {
    fn of(op: BinaryOp) -> Option<Predicate> {
        Some(match op {
            BinaryOp::Equal => Predicate::Equal,
            BinaryOp::NotEqual => Predicate::NotEqual,
            BinaryOp::Less => Predicate::Less,
            BinaryOp::LessEqual => Predicate::LessEqual,
            BinaryOp::Greater => Predicate::Greater,
            BinaryOp::GreaterEqual => Predicate::GreaterEqual,
            BinaryOp::LogicalAnd => Predicate::LogicalAnd,
            BinaryOp::LogicalOr => Predicate::LogicalOr,
            BinaryOp::LogicalXor => Predicate::LogicalXor,
            _ => return None,
        })
    }
}

/// Comparisons follow IEEE (every comparison with NaN is false except `!=`); logical
/// operations read nonzero (and NaN) as true.
fn apply_predicate<T: Element>(
    predicate: Predicate,
    x: &ArrayD<T>,
    y: &ArrayD<T>,
    shape: &[usize],
) -> Result<ArrayD<bool>, KernelError> {
    match predicate {
        Predicate::Equal => zip_with(x, y, shape, |a, b| a == b),
        Predicate::NotEqual => zip_with(x, y, shape, |a, b| a != b),
        Predicate::Less => zip_with(x, y, shape, |a, b| a < b),
        Predicate::LessEqual => zip_with(x, y, shape, |a, b| a <= b),
        Predicate::Greater => zip_with(x, y, shape, |a, b| a > b),
        Predicate::GreaterEqual => zip_with(x, y, shape, |a, b| a >= b),
        Predicate::LogicalAnd => zip_with(x, y, shape, |a, b| a.is_truthy() && b.is_truthy()),
        Predicate::LogicalOr => zip_with(x, y, shape, |a, b| a.is_truthy() || b.is_truthy()),
        Predicate::LogicalXor => zip_with(x, y, shape, |a, b| a.is_truthy() != b.is_truthy()),
    }
}

fn float_binary<F: Float>(
    op: BinaryOp,
    x: &ArrayD<F>,
    y: &ArrayD<F>,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    use BinaryOp::*;
    let result = match op {
        Add => zip_with(x, y, shape, |a, b| a + b),
        Subtract => zip_with(x, y, shape, |a, b| a - b),
        Multiply => zip_with(x, y, shape, |a, b| a * b),
        Divide => zip_with(x, y, shape, |a, b| a / b),
        FloorDivide => zip_with(x, y, shape, float_floor_divide),
        Remainder => zip_with(x, y, shape, float_remainder),
        Power => zip_with(x, y, shape, F::powf),
        Maximum => zip_with(x, y, shape, float_maximum),
        Minimum => zip_with(x, y, shape, float_minimum),
        Fmax => zip_with(x, y, shape, float_fmax),
        Fmin => zip_with(x, y, shape, float_fmin),
        Arctan2 => zip_with(x, y, shape, F::atan2),
        Hypot => zip_with(x, y, shape, F::hypot),
        _ => Err(no_loop(op, F::DTYPE)),
    }?;
    Ok(F::into_data(result))
}

fn int_binary<I: Int>(
    op: BinaryOp,
    x: &ArrayD<I>,
    y: &ArrayD<I>,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    use BinaryOp::*;
    let result = match op {
        Add => zip_with(x, y, shape, I::wrapping_add),
        Subtract => zip_with(x, y, shape, I::wrapping_sub),
        Multiply => zip_with(x, y, shape, I::wrapping_mul),
        FloorDivide => zip_with(x, y, shape, int_floor_divide),
        Remainder => zip_with(x, y, shape, int_remainder),
        Power => {
            reject_negative_exponents(y, shape)?;
            zip_with(x, y, shape, int_power)
        }
        Maximum | Fmax => zip_with(x, y, shape, Ord::max),
        Minimum | Fmin => zip_with(x, y, shape, Ord::min),
        BitwiseAnd => zip_with(x, y, shape, |a, b| a & b),
        BitwiseOr => zip_with(x, y, shape, |a, b| a | b),
        BitwiseXor => zip_with(x, y, shape, |a, b| a ^ b),
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

/// Bool arithmetic is logical: `+` and `maximum` are "or", `*` and `minimum` "and".
fn bool_binary(
    op: BinaryOp,
    x: &ArrayD<bool>,
    y: &ArrayD<bool>,
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    use BinaryOp::*;
    let result = match op {
        Add | Maximum | Fmax | BitwiseOr => zip_with(x, y, shape, |a, b| a | b),
        Multiply | Minimum | Fmin | BitwiseAnd => zip_with(x, y, shape, |a, b| a & b),
        BitwiseXor => zip_with(x, y, shape, |a, b| a ^ b),
        _ => Err(no_loop(op, DType::Bool)),
    }?;
    Ok(ArrayData::Bool(result))
}

#[cfg(test)]
mod tests;
