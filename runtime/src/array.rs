//! `ArrayData`: one chunk's values, an n-dimensional ndarray of one of marsc's dtypes,
//! and the fallible allocation every chunk buffer goes through ([`try_filled`],
//! [`try_vec`]): a chunk that cannot be allocated is an [`AllocError`] its kernel
//! reports against the expression, not an abort of the whole process.

use crate::dtype::DType;
use crate::huge_alloc::{try_zeroed_vec, ZeroIsValid};
use crate::scalar::Scalar;
use ndarray::{ArrayD, IxDyn};
use std::fmt;

/// Chunk data that could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The bytes asked for.
    pub bytes: u128,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out of memory: cannot allocate {} bytes for a chunk",
            self.bytes
        )
    }
}

impl std::error::Error for AllocError {}

fn alloc_error<T>(len: usize) -> AllocError {
    AllocError {
        bytes: len as u128 * std::mem::size_of::<T>() as u128,
    }
}

/// `len` copies of `value`, or an error where `vec![value; len]` would abort. Zeros
/// take the allocator's zeroed path (no pass over fresh memory).
pub fn try_filled<T: ZeroIsValid>(len: usize, value: T) -> Result<Vec<T>, AllocError> {
    if value.is_zero_bits() {
        return try_zeroed_vec(len).ok_or_else(|| alloc_error::<T>(len));
    }
    let mut values = try_vec(len)?;
    values.resize(len, value);
    Ok(values)
}

/// An empty vector with room for exactly `len` elements, or an error where
/// `Vec::with_capacity` would abort.
pub fn try_vec<T>(len: usize) -> Result<Vec<T>, AllocError> {
    let mut values = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| alloc_error::<T>(len))?;
    Ok(values)
}

/// The items of `items` in a vector, or an error where `collect` would abort.
pub fn try_collect<T>(items: impl ExactSizeIterator<Item = T>) -> Result<Vec<T>, AllocError> {
    let mut values = try_vec(items.len())?;
    values.extend(items);
    Ok(values)
}

/// An array of `shape` filled with `value`, or an error when it cannot be allocated
/// (or its element count overflows).
pub fn try_array_filled<T: ZeroIsValid>(
    shape: &[usize],
    value: T,
) -> Result<ArrayD<T>, AllocError> {
    let len = shape
        .iter()
        .try_fold(1usize, |len, &axis| len.checked_mul(axis))
        .ok_or(AllocError { bytes: u128::MAX })?;
    let values = try_filled(len, value)?;
    ArrayD::from_shape_vec(IxDyn(shape), values).map_err(|_| alloc_error::<T>(len))
}

/// A dynamically typed n-d array (a chunk, or a whole result being printed).
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    Bool(ArrayD<bool>),
    Int8(ArrayD<i8>),
    Int16(ArrayD<i16>),
    Int32(ArrayD<i32>),
    Int64(ArrayD<i64>),
    UInt8(ArrayD<u8>),
    UInt16(ArrayD<u16>),
    UInt32(ArrayD<u32>),
    UInt64(ArrayD<u64>),
    Float16(ArrayD<half::f16>),
    Float32(ArrayD<f32>),
    Float64(ArrayD<f64>),
    Complex64(ArrayD<crate::complex::C64>),
    Complex128(ArrayD<crate::complex::C128>),
}

/// Runs `$body` with `$a` bound to the inner `ArrayD<T>` whatever the dtype.
#[macro_export]
macro_rules! with_array {
    ($value:expr, $a:ident => $body:expr) => {
        match $value {
            $crate::array::ArrayData::Bool($a) => $body,
            $crate::array::ArrayData::Int8($a) => $body,
            $crate::array::ArrayData::Int16($a) => $body,
            $crate::array::ArrayData::Int32($a) => $body,
            $crate::array::ArrayData::Int64($a) => $body,
            $crate::array::ArrayData::UInt8($a) => $body,
            $crate::array::ArrayData::UInt16($a) => $body,
            $crate::array::ArrayData::UInt32($a) => $body,
            $crate::array::ArrayData::UInt64($a) => $body,
            $crate::array::ArrayData::Float16($a) => $body,
            $crate::array::ArrayData::Float32($a) => $body,
            $crate::array::ArrayData::Float64($a) => $body,
            $crate::array::ArrayData::Complex64($a) => $body,
            $crate::array::ArrayData::Complex128($a) => $body,
        }
    };
}

/// Runs `$body` with `$v` bound to a scalar's value and `$wrap` naming the
/// `ArrayData` variant of its dtype.
macro_rules! with_scalar_variant {
    ($value:expr, ($v:ident, $wrap:ident) => $body:expr) => {
        match $value {
            Scalar::Bool($v) => {
                use ArrayData::Bool as $wrap;
                $body
            }
            Scalar::Int8($v) => {
                use ArrayData::Int8 as $wrap;
                $body
            }
            Scalar::Int16($v) => {
                use ArrayData::Int16 as $wrap;
                $body
            }
            Scalar::Int32($v) => {
                use ArrayData::Int32 as $wrap;
                $body
            }
            Scalar::Int64($v) => {
                use ArrayData::Int64 as $wrap;
                $body
            }
            Scalar::UInt8($v) => {
                use ArrayData::UInt8 as $wrap;
                $body
            }
            Scalar::UInt16($v) => {
                use ArrayData::UInt16 as $wrap;
                $body
            }
            Scalar::UInt32($v) => {
                use ArrayData::UInt32 as $wrap;
                $body
            }
            Scalar::UInt64($v) => {
                use ArrayData::UInt64 as $wrap;
                $body
            }
            Scalar::Float16($v) => {
                use ArrayData::Float16 as $wrap;
                $body
            }
            Scalar::Float32($v) => {
                use ArrayData::Float32 as $wrap;
                $body
            }
            Scalar::Float64($v) => {
                use ArrayData::Float64 as $wrap;
                $body
            }
            Scalar::Complex64($v) => {
                use ArrayData::Complex64 as $wrap;
                $body
            }
            Scalar::Complex128($v) => {
                use ArrayData::Complex128 as $wrap;
                $body
            }
        }
    };
}

impl ArrayData {
    pub fn dtype(&self) -> DType {
        match self {
            ArrayData::Bool(_) => DType::Bool,
            ArrayData::Int8(_) => DType::Int8,
            ArrayData::Int16(_) => DType::Int16,
            ArrayData::Int32(_) => DType::Int32,
            ArrayData::Int64(_) => DType::Int64,
            ArrayData::UInt8(_) => DType::UInt8,
            ArrayData::UInt16(_) => DType::UInt16,
            ArrayData::UInt32(_) => DType::UInt32,
            ArrayData::UInt64(_) => DType::UInt64,
            ArrayData::Float16(_) => DType::Float16,
            ArrayData::Float32(_) => DType::Float32,
            ArrayData::Float64(_) => DType::Float64,
            ArrayData::Complex64(_) => DType::Complex64,
            ArrayData::Complex128(_) => DType::Complex128,
        }
    }

    pub fn shape(&self) -> &[usize] {
        with_array!(self, a => a.shape())
    }

    pub fn ndim(&self) -> usize {
        self.shape().len()
    }

    pub fn len(&self) -> usize {
        with_array!(self, a => a.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of element data (what `transfer_bytes` and memory accounting count).
    pub fn nbytes(&self) -> usize {
        self.len() * self.dtype().itemsize()
    }

    /// An array of `shape` with every element `value` (of `value`'s dtype), or an
    /// error when it cannot be allocated.
    pub fn try_full(shape: &[usize], value: Scalar) -> Result<ArrayData, AllocError> {
        Ok(with_scalar_variant!(value, (v, Wrap) => Wrap(try_array_filled(shape, v)?)))
    }

    /// A 0-d array holding `value`.
    pub fn from_scalar(value: Scalar) -> ArrayData {
        let shape = ndarray::IxDyn(&[]);
        with_scalar_variant!(value, (v, Wrap) => Wrap(ArrayD::from_elem(shape, v)))
    }

    /// The element at a C-order flat position, or `None` past the end.
    pub fn get_flat(&self, index: usize) -> Option<Scalar> {
        match self {
            ArrayData::Bool(a) => a.iter().nth(index).map(|v| Scalar::Bool(*v)),
            ArrayData::Int8(a) => a.iter().nth(index).map(|v| Scalar::Int8(*v)),
            ArrayData::Int16(a) => a.iter().nth(index).map(|v| Scalar::Int16(*v)),
            ArrayData::Int32(a) => a.iter().nth(index).map(|v| Scalar::Int32(*v)),
            ArrayData::Int64(a) => a.iter().nth(index).map(|v| Scalar::Int64(*v)),
            ArrayData::UInt8(a) => a.iter().nth(index).map(|v| Scalar::UInt8(*v)),
            ArrayData::UInt16(a) => a.iter().nth(index).map(|v| Scalar::UInt16(*v)),
            ArrayData::UInt32(a) => a.iter().nth(index).map(|v| Scalar::UInt32(*v)),
            ArrayData::UInt64(a) => a.iter().nth(index).map(|v| Scalar::UInt64(*v)),
            ArrayData::Float16(a) => a.iter().nth(index).map(|v| Scalar::Float16(*v)),
            ArrayData::Float32(a) => a.iter().nth(index).map(|v| Scalar::Float32(*v)),
            ArrayData::Float64(a) => a.iter().nth(index).map(|v| Scalar::Float64(*v)),
            ArrayData::Complex64(a) => a.iter().nth(index).map(|v| Scalar::Complex64(*v)),
            ArrayData::Complex128(a) => a.iter().nth(index).map(|v| Scalar::Complex128(*v)),
        }
    }
}
