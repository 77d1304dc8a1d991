//! Creation kernels: each produces one chunk of a tensor that has no inputs, given the
//! chunk's shape and where the chunk starts in the whole tensor, so that every value
//! is a function of its global position only (never of the chunking).

use crate::array::{try_collect, ArrayData};
use crate::convert::CastFrom;
use crate::dtype::DType;
use crate::kernels::element::{array_from_vec, checked_len, with_element_type, Element};
use crate::kernels::scalar_semantics::Float;
use crate::kernels::KernelError;
use crate::scalar::FromScalar;
use crate::scalar::Scalar;

/// Every element equal to `value` (`ones`, `zeros`, `full`, `empty`).
pub fn full(shape: &[usize], value: Scalar) -> Result<ArrayData, KernelError> {
    checked_len(shape, value.dtype())?;
    Ok(ArrayData::try_full(shape, value)?)
}

/// Elements `offset .. offset + len` of `np.arange(start, stop, step)` in the dtype of
/// `start` (`step` is converted to it). As NumPy fills an arange, element 0 is
/// `start`, element 1 is `start + step`, and element i >= 2 is `start + i * delta`
/// with `delta = (start + step) - start` computed in the dtype, `i` converted to it.
pub fn arange(
    start: Scalar,
    step: Scalar,
    offset: usize,
    len: usize,
) -> Result<ArrayData, KernelError> {
    let dtype = start.dtype();
    checked_len(&[len], dtype)?;
    let indices = offset..offset.saturating_add(len);
    match start {
        Scalar::Bool(start) => bool_arange(start, bool::from_scalar(step), indices),
        Scalar::Int8(start) => int_arange::<i8>(start.into(), i64::from_scalar(step), indices),
        Scalar::Int16(start) => int_arange::<i16>(start.into(), i64::from_scalar(step), indices),
        Scalar::Int32(start) => int_arange::<i32>(start.into(), i64::from_scalar(step), indices),
        Scalar::Int64(start) => int_arange::<i64>(start, i64::from_scalar(step), indices),
        Scalar::UInt8(start) => int_arange::<u8>(start.into(), i64::from_scalar(step), indices),
        Scalar::UInt16(start) => int_arange::<u16>(start.into(), i64::from_scalar(step), indices),
        Scalar::UInt32(start) => int_arange::<u32>(start.into(), i64::from_scalar(step), indices),
        // Computed modulo 2^64, as NumPy's uint64 arange.
        Scalar::UInt64(start) => int_arange::<u64>(start as i64, i64::from_scalar(step), indices),
        Scalar::Float16(start) => f16_arange(start, f64::from_scalar(step), indices),
        Scalar::Float32(start) => float_arange(start, f32::from_scalar(step), indices),
        Scalar::Float64(start) => float_arange(start, f64::from_scalar(step), indices),
        // A complex arange of real start and step: the float64 one, converted.
        Scalar::Complex64(_) | Scalar::Complex128(_) => {
            let real = float_arange(start.as_f64(), step.as_f64(), indices)?;
            Ok(crate::kernels::cast(&real, dtype))
        }
    }
}

fn float_arange<F: Float>(
    start: F,
    step: F,
    indices: std::ops::Range<usize>,
) -> Result<ArrayData, KernelError> {
    let values = try_collect(indices.map(|i| float_arange_at(start, step, i)))?;
    Ok(F::into_data(ndarray::Array1::from_vec(values).into_dyn()))
}

/// A float16 arange as NumPy fills one: element 1 is `start + step` rounded to
/// float16, and element i >= 2 is `start + i * delta` computed in float32 from the
/// two float16 values and rounded.
fn f16_arange(
    start: half::f16,
    step: f64,
    indices: std::ops::Range<usize>,
) -> Result<ArrayData, KernelError> {
    let next = crate::kernels::f64_to_f16(start.to_f64() + step);
    let (first, delta) = (start.to_f32(), next.to_f32() - start.to_f32());
    let values = try_collect(indices.map(|i| match i {
        0 => start,
        1 => next,
        _ => half::f16::from_f32(first + i as f32 * delta),
    }))?;
    Ok(ArrayData::Float16(
        ndarray::Array1::from_vec(values).into_dyn(),
    ))
}

/// Element `i` of a float arange (shared with the JIT, which computes one element at
/// a time).
pub(crate) fn float_arange_at<F: Float>(start: F, step: F, i: usize) -> F {
    let next = start + step;
    match i {
        0 => start,
        1 => next,
        _ => start + F::from_index(i) * (next - start),
    }
}

/// Element `i` of an int64 arange before it is stored in its dtype.
pub(crate) fn int_arange_at(start: i64, step: i64, i: usize) -> i64 {
    start.wrapping_add((i as i64).wrapping_mul(step))
}

/// NumPy computes integer aranges in 64 bits and stores the result, so int32
/// elements wrap like a cast from int64.
fn int_arange<I: Element + CastFrom<i64>>(
    start: i64,
    step: i64,
    indices: std::ops::Range<usize>,
) -> Result<ArrayData, KernelError> {
    let values = try_collect(indices.map(|i| I::cast_from(int_arange_at(start, step, i))))?;
    Ok(I::into_data(ndarray::Array1::from_vec(values).into_dyn()))
}

fn bool_arange(
    start: bool,
    step: bool,
    indices: std::ops::Range<usize>,
) -> Result<ArrayData, KernelError> {
    if indices.end > 2 {
        return Err(KernelError::new(
            "arange() is only supported for booleans when the result has at most length 2.",
        ));
    }
    // Element 1 is `start + step` computed on Python ints, then read as bool.
    let values = indices.map(|i| if i == 0 { start } else { start || step });
    Ok(ArrayData::Bool(
        ndarray::Array1::from_iter(values).into_dyn(),
    ))
}

/// Elements `offset .. offset + len` of `np.linspace(start, stop, num, endpoint,
/// dtype=dtype)`, bit for bit: computed in float64 as `i * step + start` with
/// `step = (stop - start) / div` (`div = num - 1` with the endpoint, else `num`),
/// `i / div * delta` instead when `step` underflows to 0, the last element set to
/// exactly `stop` when `endpoint` and `num > 1`; floored for integer dtypes, then cast.
pub fn linspace(
    start: f64,
    stop: f64,
    num: usize,
    endpoint: bool,
    dtype: DType,
    offset: usize,
    len: usize,
) -> Result<ArrayData, KernelError> {
    checked_len(&[len], dtype)?;
    let indices = offset..offset.saturating_add(len);
    Ok(with_element_type!(dtype, T => {
        let values = try_collect(
            indices.map(|i| T::cast_from(linspace_at(start, stop, num, endpoint, dtype, i))),
        )?;
        T::into_data(ndarray::Array1::<T>::from_vec(values).into_dyn())
    }))
}

/// Element `i` of a linspace in float64, floored when `dtype` is an integer type (the
/// caller converts it to `dtype`); shared with the JIT.
pub(crate) fn linspace_at(
    start: f64,
    stop: f64,
    num: usize,
    endpoint: bool,
    dtype: DType,
    i: usize,
) -> f64 {
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let delta = stop - start;
    let step = delta / div as f64;
    if endpoint && num > 1 && i == num - 1 {
        return if dtype.is_int() { stop.floor() } else { stop };
    }
    let position = i as f64;
    let scaled = if div == 0 {
        // A sequence of at most one element has no step; NumPy multiplies by
        // delta so that a NaN or infinite delta still shows.
        position * delta
    } else if step == 0.0 {
        // `delta / div` underflowed (subnormal range): divide first instead.
        position / div as f64 * delta
    } else {
        position * step
    };
    let value = scaled + start;
    if dtype.is_int() {
        value.floor()
    } else {
        value
    }
}

/// One chunk of `np.eye(N, M, k)`: the chunk covers rows `row_offset ..` and columns
/// `col_offset ..` of the whole matrix; element (r, c) is 1 where `c - r == k`.
pub fn eye(
    shape: [usize; 2],
    row_offset: usize,
    col_offset: usize,
    k: i64,
    dtype: DType,
) -> Result<ArrayData, KernelError> {
    let [rows, cols] = shape;
    let len = checked_len(&shape, dtype)?;
    // The diagonal's column within the chunk for a chunk row; i128 cannot overflow.
    let diagonal_column = |row: usize| -> Option<usize> {
        let global_column = row_offset as i128 + row as i128 + k as i128;
        let column = global_column - col_offset as i128;
        usize::try_from(column).ok().filter(|&c| c < cols)
    };
    with_element_type!(dtype, T => {
        let zero = T::cast_from(false);
        let one = T::cast_from(true);
        let mut values = crate::array::try_filled(len, zero)?;
        for row in 0..rows {
            if let Some(column) = diagonal_column(row) {
                values[row * cols + column] = one;
            }
        }
        array_from_vec(&shape, values).map(T::into_data)
    })
}

/// `tensor([...])` data: `values` in C order, converted to `dtype`.
pub fn literal(shape: &[usize], values: &[Scalar], dtype: DType) -> Result<ArrayData, KernelError> {
    let len = checked_len(shape, dtype)?;
    if len != values.len() {
        return Err(KernelError::new(format!(
            "internal error: {} literal values for shape {shape:?}",
            values.len()
        )));
    }
    with_element_type!(dtype, T => {
        let values = values.iter().map(|&v| T::from_scalar(v)).collect();
        array_from_vec(shape, values).map(T::into_data)
    })
}

#[cfg(test)]
mod tests;
