//! Block matrix multiplication: [`matmul_blocks`] sums the products of several
//! `(n, k_l) @ (k_l, m)` block pairs into one output block (a run of the contracted
//! axis, in order), [`matmul_block`] is its one-pair case, and [`add_blocks`] sums such
//! partial results (a tree a tiler may shape freely). Floats and complex numbers go
//! through faer (`float.rs`), accumulating in place; integers wrap on overflow as
//! NumPy's do; `bool @ bool` is the OR of ANDs.

mod float;

pub use float::{float_product, float_product_sum, Threads};

use crate::array::ArrayData;
use crate::kernels::KernelError;
use ndarray::{Array2, ArrayD, ArrayView2, Ix2, Zip};
use std::num::Wrapping;

/// `a @ b` for 2-D blocks of the same dtype (result in that dtype, as NumPy gives).
pub fn matmul_block(a: &ArrayData, b: &ArrayData) -> Result<ArrayData, KernelError> {
    matmul_blocks(&[a, b])
}

/// `a_0 @ b_0 + a_1 @ b_1 + ...` for arguments `[a_0, b_0, a_1, b_1, ...]`: 2-D blocks
/// of one dtype whose products share one shape, summed in the order given.
pub fn matmul_blocks(operands: &[&ArrayData]) -> Result<ArrayData, KernelError> {
    let pairs = operand_pairs(operands)?;
    let (a, b) = pairs[0];
    let shape = (a.shape()[0], b.shape()[1]);
    macro_rules! float_sum {
        ($variant:ident) => {{
            let views = pairs
                .iter()
                .map(|(a, b)| match (a, b) {
                    (ArrayData::$variant(a), ArrayData::$variant(b)) => Ok((as_2d(a)?, as_2d(b)?)),
                    _ => Err(operand_error(a, b)),
                })
                .collect::<Result<Vec<_>, _>>()?;
            ArrayData::$variant(float_product_sum(&views, shape, Threads::Pool).into_dyn())
        }};
    }
    // Complex elements are NumPy-semantics wrappers (`Cx`) of `num_complex::Complex`,
    // which faer multiplies: unwrapped copies in, the product wrapped back.
    macro_rules! complex_sum {
        ($variant:ident) => {{
            let unwrapped = pairs
                .iter()
                .map(|(a, b)| match (a, b) {
                    (ArrayData::$variant(a), ArrayData::$variant(b)) => {
                        Ok((as_2d(a)?.mapv(|x| x.0), as_2d(b)?.mapv(|x| x.0)))
                    }
                    _ => Err(operand_error(a, b)),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let views: Vec<_> = unwrapped
                .iter()
                .map(|(a, b)| (a.view(), b.view()))
                .collect();
            let product = float_product_sum(&views, shape, Threads::Pool);
            ArrayData::$variant(product.mapv(crate::complex::Cx).into_dyn())
        }};
    }
    Ok(match a {
        // NumPy's float16 matmul sums float32 products in float32 and rounds once.
        ArrayData::Float16(_) => {
            let widened: Vec<ArrayData> = operands
                .iter()
                .map(|x| crate::kernels::cast(x, crate::dtype::DType::Float32))
                .collect();
            let widened: Vec<&ArrayData> = widened.iter().collect();
            crate::kernels::cast::narrow_to_f16(matmul_blocks(&widened)?)
        }
        ArrayData::Float64(_) => float_sum!(Float64),
        ArrayData::Float32(_) => float_sum!(Float32),
        ArrayData::Complex64(_) => complex_sum!(Complex64),
        ArrayData::Complex128(_) => complex_sum!(Complex128),
        _ => {
            let mut products = pairs
                .iter()
                .map(|(a, b)| exact_product(a, b))
                .collect::<Result<Vec<_>, _>>()?;
            match products.len() {
                1 => products.swap_remove(0),
                _ => add_blocks(&products.iter().collect::<Vec<_>>())?,
            }
        }
    })
}

/// The operands as checked `(a, b)` pairs: at least one, every pair multipliable, one
/// dtype and one product shape throughout.
fn operand_pairs<'a>(
    operands: &[&'a ArrayData],
) -> Result<Vec<(&'a ArrayData, &'a ArrayData)>, KernelError> {
    if operands.is_empty() || !operands.len().is_multiple_of(2) {
        return Err(KernelError(format!(
            "matmul_blocks needs pairs of blocks, got {} operands",
            operands.len()
        )));
    }
    let pairs: Vec<_> = operands.chunks(2).map(|pair| (pair[0], pair[1])).collect();
    let (first_a, first_b) = pairs[0];
    for &(a, b) in &pairs {
        check_operands(a, b)?;
        let same_product = a.dtype() == first_a.dtype()
            && a.shape()[0] == first_a.shape()[0]
            && b.shape()[1] == first_b.shape()[1];
        if !same_product {
            return Err(KernelError(format!(
                "cannot add the product of {} {:?} @ {:?} to that of {} {:?} @ {:?}",
                a.dtype(),
                a.shape(),
                b.shape(),
                first_a.dtype(),
                first_a.shape(),
                first_b.shape()
            )));
        }
    }
    Ok(pairs)
}

/// The product of an integer or bool pair (exact, so the summing order cannot matter).
fn exact_product(a: &ArrayData, b: &ArrayData) -> Result<ArrayData, KernelError> {
    Ok(match (a, b) {
        (ArrayData::Int64(a), ArrayData::Int64(b)) => ArrayData::Int64(wrapping_dot(a, b)?),
        (ArrayData::Int32(a), ArrayData::Int32(b)) => ArrayData::Int32(wrapping_dot(a, b)?),
        (ArrayData::Int16(a), ArrayData::Int16(b)) => ArrayData::Int16(wrapping_dot(a, b)?),
        (ArrayData::Int8(a), ArrayData::Int8(b)) => ArrayData::Int8(wrapping_dot(a, b)?),
        (ArrayData::UInt64(a), ArrayData::UInt64(b)) => ArrayData::UInt64(wrapping_dot(a, b)?),
        (ArrayData::UInt32(a), ArrayData::UInt32(b)) => ArrayData::UInt32(wrapping_dot(a, b)?),
        (ArrayData::UInt16(a), ArrayData::UInt16(b)) => ArrayData::UInt16(wrapping_dot(a, b)?),
        (ArrayData::UInt8(a), ArrayData::UInt8(b)) => ArrayData::UInt8(wrapping_dot(a, b)?),
        (ArrayData::Bool(a), ArrayData::Bool(b)) => ArrayData::Bool(boolean_dot(a, b)?),
        _ => return Err(operand_error(a, b)),
    })
}

/// The elementwise sum of same-shaped, same-dtype partial products (logical or for
/// bool, wrapping for ints), in the order given.
pub fn add_blocks(parts: &[&ArrayData]) -> Result<ArrayData, KernelError> {
    let Some(first) = parts.first() else {
        return Err(KernelError("add_blocks needs at least one block".into()));
    };
    if let Some(odd) = parts
        .iter()
        .find(|p| p.dtype() != first.dtype() || p.shape() != first.shape())
    {
        return Err(KernelError(format!(
            "cannot add a {} {:?} block to a {} {:?} block",
            odd.dtype(),
            odd.shape(),
            first.dtype(),
            first.shape()
        )));
    }
    macro_rules! fold_parts {
        ($variant:ident, $add:expr) => {{
            let arrays = parts.iter().filter_map(|part| match part {
                ArrayData::$variant(array) => Some(array),
                _ => None,
            });
            let total = sum_arrays(arrays, $add)
                .ok_or_else(|| KernelError("add_blocks needs at least one block".into()))?;
            ArrayData::$variant(total)
        }};
    }
    Ok(match first {
        ArrayData::Bool(_) => fold_parts!(Bool, |x: bool, y: bool| x || y),
        ArrayData::Int8(_) => fold_parts!(Int8, i8::wrapping_add),
        ArrayData::Int16(_) => fold_parts!(Int16, i16::wrapping_add),
        ArrayData::Int32(_) => fold_parts!(Int32, i32::wrapping_add),
        ArrayData::Int64(_) => fold_parts!(Int64, i64::wrapping_add),
        ArrayData::UInt8(_) => fold_parts!(UInt8, u8::wrapping_add),
        ArrayData::UInt16(_) => fold_parts!(UInt16, u16::wrapping_add),
        ArrayData::UInt32(_) => fold_parts!(UInt32, u32::wrapping_add),
        ArrayData::UInt64(_) => fold_parts!(UInt64, u64::wrapping_add),
        ArrayData::Float16(_) => fold_parts!(Float16, |x: half::f16, y: half::f16| {
            half::f16::from_f32(x.to_f32() + y.to_f32())
        }),
        ArrayData::Float32(_) => fold_parts!(Float32, |x: f32, y: f32| x + y),
        ArrayData::Float64(_) => fold_parts!(Float64, |x: f64, y: f64| x + y),
        ArrayData::Complex64(_) => fold_parts!(Complex64, |x: crate::C64, y: crate::C64| x + y),
        ArrayData::Complex128(_) => {
            fold_parts!(Complex128, |x: crate::C128, y: crate::C128| x + y)
        }
    })
}

/// The elementwise fold of same-shaped arrays; `None` if there are none. The first two
/// are added into a fresh array in one pass (rather than copying the first and adding
/// the second in place), so the sum of k parts reads each once and writes once.
fn sum_arrays<'a, T: Copy + 'a>(
    mut arrays: impl Iterator<Item = &'a ArrayD<T>>,
    add: impl Fn(T, T) -> T,
) -> Option<ArrayD<T>> {
    let first = arrays.next()?;
    let mut total = match arrays.next() {
        // Zip collects in its inputs' layout: only row-major inputs give a row-major sum.
        Some(second) if first.is_standard_layout() && second.is_standard_layout() => {
            Zip::from(first).and(second).map_collect(|&x, &y| add(x, y))
        }
        second => {
            let mut total = first.as_standard_layout().into_owned();
            if let Some(second) = second {
                total.zip_mut_with(second, |t, &v| *t = add(*t, v));
            }
            total
        }
    };
    for array in arrays {
        total.zip_mut_with(array, |t, &v| *t = add(*t, v));
    }
    Some(total)
}

fn check_operands(a: &ArrayData, b: &ArrayData) -> Result<(), KernelError> {
    if a.dtype() != b.dtype() || a.ndim() != 2 || b.ndim() != 2 {
        return Err(operand_error(a, b));
    }
    let (k_a, k_b) = (a.shape()[1], b.shape()[0]);
    if k_a != k_b {
        return Err(KernelError(format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
             signature (n?,k),(k,m?)->(n?,m?) (size {k_b} is different from {k_a})"
        )));
    }
    Ok(())
}

fn operand_error(a: &ArrayData, b: &ArrayData) -> KernelError {
    KernelError(format!(
        "matmul_block needs two 2-D blocks of one dtype, got {} {:?} and {} {:?}",
        a.dtype(),
        a.shape(),
        b.dtype(),
        b.shape()
    ))
}

fn as_2d<T>(array: &ArrayD<T>) -> Result<ArrayView2<'_, T>, KernelError> {
    array
        .view()
        .into_dimensionality::<Ix2>()
        .map_err(|err| KernelError(format!("matmul block is not 2-D: {err}")))
}

/// Integer product through `Wrapping`, so overflow wraps (as in NumPy) instead of
/// panicking in checked builds.
fn wrapping_dot<T>(a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>, KernelError>
where
    T: Copy + 'static,
    Wrapping<T>: ndarray::LinalgScalar,
{
    let a: Array2<Wrapping<T>> = as_2d(a)?.mapv(Wrapping);
    let b: Array2<Wrapping<T>> = as_2d(b)?.mapv(Wrapping);
    Ok(a.dot(&b).mapv(|Wrapping(v)| v).into_dyn())
}

/// `out[i, j] = any_k(a[i, k] && b[k, j])`, row by row so that each `true` in `a`
/// ORs a whole row of `b` into the output.
fn boolean_dot(a: &ArrayD<bool>, b: &ArrayD<bool>) -> Result<ArrayD<bool>, KernelError> {
    let (a, b) = (as_2d(a)?, as_2d(b)?);
    let mut out = Array2::from_elem((a.nrows(), b.ncols()), false);
    for (a_row, mut out_row) in a.rows().into_iter().zip(out.rows_mut()) {
        for (&hit, b_row) in a_row.iter().zip(b.rows()) {
            if hit {
                out_row.zip_mut_with(&b_row, |o, &v| *o |= v);
            }
        }
    }
    Ok(out.into_dyn())
}

#[cfg(test)]
mod tests;
