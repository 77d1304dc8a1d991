//! The link between Rust element types and [`ArrayData`]'s dtype tags, so each kernel
//! is written once as a generic function and dispatched on the dtype in one place.

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::KernelError;
use ndarray::{ArrayD, IxDyn};

/// One of the element types a chunk can hold.
pub trait Element:
    crate::huge_alloc::ZeroIsValid + Copy + PartialEq + PartialOrd + Send + Sync + 'static
{
    const DTYPE: DType;

    /// Wraps an array of this element type in its `ArrayData` variant.
    fn into_data(array: ArrayD<Self>) -> ArrayData;

    /// NumPy's truth value: nonzero (NaN counts as nonzero).
    fn is_truthy(self) -> bool;

    fn is_nan(self) -> bool {
        false
    }

    fn is_infinite(self) -> bool {
        false
    }

    fn is_finite(self) -> bool {
        true
    }
}

macro_rules! impl_exact_element {
    ($t:ty, $variant:ident, $zero:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$variant;

            fn into_data(array: ArrayD<Self>) -> ArrayData {
                ArrayData::$variant(array)
            }

            fn is_truthy(self) -> bool {
                self != $zero
            }
        }
    };
}

impl_exact_element!(bool, Bool, false);
impl_exact_element!(i8, Int8, 0);
impl_exact_element!(i16, Int16, 0);
impl_exact_element!(i32, Int32, 0);
impl_exact_element!(i64, Int64, 0);
impl_exact_element!(u8, UInt8, 0);
impl_exact_element!(u16, UInt16, 0);
impl_exact_element!(u32, UInt32, 0);
impl_exact_element!(u64, UInt64, 0);

/// Floats and complex numbers: their own NaN/infinity tests, and `truthy` (NumPy's
/// truth value: nonzero, NaN counting as nonzero).
macro_rules! impl_inexact_element {
    ($t:ty, $variant:ident, $truthy:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$variant;

            fn into_data(array: ArrayD<Self>) -> ArrayData {
                ArrayData::$variant(array)
            }

            fn is_truthy(self) -> bool {
                ($truthy)(self)
            }

            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }

            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }

            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
        }
    };
}

impl_inexact_element!(half::f16, Float16, |x: half::f16| x != half::f16::ZERO);
impl_inexact_element!(f32, Float32, |x: f32| x != 0.0);
impl_inexact_element!(f64, Float64, |x: f64| x != 0.0);

impl_inexact_element!(
    crate::complex::C64,
    Complex64,
    crate::complex::C64::is_truthy
);
impl_inexact_element!(
    crate::complex::C128,
    Complex128,
    crate::complex::C128::is_truthy
);

/// The number of elements of `shape`, or an error when an array of that shape could
/// not exist (ndarray would panic on it).
pub(crate) fn checked_len(shape: &[usize], dtype: DType) -> Result<usize, KernelError> {
    let len = shape
        .iter()
        .try_fold(1usize, |acc, &axis| acc.checked_mul(axis));
    let fits = |len: usize| {
        len.checked_mul(dtype.itemsize())
            .is_some_and(|bytes| bytes <= isize::MAX as usize)
    };
    match len {
        Some(len) if fits(len) => Ok(len),
        _ => Err(KernelError::new(format!(
            "a {dtype} array of shape {shape:?} is too large to allocate"
        ))),
    }
}

/// Builds an array from C-order values whose count the caller already checked.
pub(crate) fn array_from_vec<T>(shape: &[usize], values: Vec<T>) -> Result<ArrayD<T>, KernelError> {
    let count = values.len();
    ArrayD::from_shape_vec(IxDyn(shape), values).map_err(|err| {
        KernelError::new(format!(
            "internal error: {count} values do not fill shape {shape:?}: {err}"
        ))
    })
}

/// Runs `$body` with `$x` and `$y` bound to the inner arrays of two `ArrayData` values
/// of the same dtype, or evaluates to an internal error when the dtypes differ.
macro_rules! with_same_dtype {
    ($a:expr, $b:expr, ($x:ident, $y:ident) => $body:expr) => {
        match ($a, $b) {
            ($crate::array::ArrayData::Bool($x), $crate::array::ArrayData::Bool($y)) => $body,
            ($crate::array::ArrayData::Int8($x), $crate::array::ArrayData::Int8($y)) => $body,
            ($crate::array::ArrayData::Int16($x), $crate::array::ArrayData::Int16($y)) => $body,
            ($crate::array::ArrayData::Int32($x), $crate::array::ArrayData::Int32($y)) => $body,
            ($crate::array::ArrayData::Int64($x), $crate::array::ArrayData::Int64($y)) => $body,
            ($crate::array::ArrayData::UInt8($x), $crate::array::ArrayData::UInt8($y)) => $body,
            ($crate::array::ArrayData::UInt16($x), $crate::array::ArrayData::UInt16($y)) => $body,
            ($crate::array::ArrayData::UInt32($x), $crate::array::ArrayData::UInt32($y)) => $body,
            ($crate::array::ArrayData::UInt64($x), $crate::array::ArrayData::UInt64($y)) => $body,
            ($crate::array::ArrayData::Float16($x), $crate::array::ArrayData::Float16($y)) => $body,
            ($crate::array::ArrayData::Float32($x), $crate::array::ArrayData::Float32($y)) => $body,
            ($crate::array::ArrayData::Float64($x), $crate::array::ArrayData::Float64($y)) => $body,
            ($crate::array::ArrayData::Complex64($x), $crate::array::ArrayData::Complex64($y)) => {
                $body
            }
            (
                $crate::array::ArrayData::Complex128($x),
                $crate::array::ArrayData::Complex128($y),
            ) => $body,
            (a, b) => Err($crate::kernels::KernelError::new(format!(
                "internal error: operands of dtypes {} and {} where one dtype was expected",
                a.dtype(),
                b.dtype()
            ))),
        }
    };
}

pub(crate) use with_same_dtype;

/// Runs `$body` with the type alias `$t` naming the element type of `$dtype`.
macro_rules! with_element_type {
    ($dtype:expr, $t:ident => $body:expr) => {
        match $dtype {
            $crate::dtype::DType::Bool => {
                type $t = bool;
                $body
            }
            $crate::dtype::DType::Int8 => {
                type $t = i8;
                $body
            }
            $crate::dtype::DType::Int16 => {
                type $t = i16;
                $body
            }
            $crate::dtype::DType::Int32 => {
                type $t = i32;
                $body
            }
            $crate::dtype::DType::Int64 => {
                type $t = i64;
                $body
            }
            $crate::dtype::DType::UInt8 => {
                type $t = u8;
                $body
            }
            $crate::dtype::DType::UInt16 => {
                type $t = u16;
                $body
            }
            $crate::dtype::DType::UInt32 => {
                type $t = u32;
                $body
            }
            $crate::dtype::DType::UInt64 => {
                type $t = u64;
                $body
            }
            $crate::dtype::DType::Float16 => {
                type $t = half::f16;
                $body
            }
            $crate::dtype::DType::Float32 => {
                type $t = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $t = f64;
                $body
            }
            $crate::dtype::DType::Complex64 => {
                type $t = $crate::complex::C64;
                $body
            }
            $crate::dtype::DType::Complex128 => {
                type $t = $crate::complex::C128;
                $body
            }
        }
    };
}

pub(crate) use with_element_type;

/// `x` with its elements stored in C order. Element-wise kernels follow their input's
/// memory order, but every kernel hands back C-contiguous chunks (other kernels and
/// the `.npy` writer rely on it), so a Fortran-ordered input costs one copy here.
pub(crate) fn into_c_order(x: ArrayData) -> ArrayData {
    fn standard<T: Element>(a: ArrayD<T>) -> ArrayData {
        if a.is_standard_layout() {
            T::into_data(a)
        } else {
            T::into_data(a.as_standard_layout().into_owned())
        }
    }
    match x {
        ArrayData::Bool(a) => standard(a),
        ArrayData::Int8(a) => standard(a),
        ArrayData::Int16(a) => standard(a),
        ArrayData::Int32(a) => standard(a),
        ArrayData::Int64(a) => standard(a),
        ArrayData::UInt8(a) => standard(a),
        ArrayData::UInt16(a) => standard(a),
        ArrayData::UInt32(a) => standard(a),
        ArrayData::UInt64(a) => standard(a),
        ArrayData::Float16(a) => standard(a),
        ArrayData::Float32(a) => standard(a),
        ArrayData::Float64(a) => standard(a),
        ArrayData::Complex64(a) => standard(a),
        ArrayData::Complex128(a) => standard(a),
    }
}
