//! Element type conversions with NumPy's `astype` semantics as x86-64 builds of NumPy
//! produce them. Float to integer is written out explicitly: NumPy truncates toward
//! zero and turns NaN, ±inf and out-of-range values into the integer type's minimum
//! (what the x86 `cvttsd2si` instruction gives), whereas Rust's `as` saturates.

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::element::into_c_order;
use crate::scalar::Scalar;
use crate::with_array;
use ndarray::ArrayD;
use std::borrow::Cow;

/// A conversion from element type `S` with NumPy's semantics.
pub trait CastFrom<S>: Sized {
    fn cast_from(value: S) -> Self;
}

/// `f64` to `i32`: truncation toward zero; NaN, ±inf and values whose truncation is
/// out of range give `i32::MIN`.
pub fn f64_to_i32(value: f64) -> i32 {
    let truncated = value.trunc();
    if (i32::MIN as f64..=i32::MAX as f64).contains(&truncated) {
        truncated as i32
    } else {
        i32::MIN
    }
}

/// `f64` to `i64`: truncation toward zero; NaN, ±inf and values outside
/// [-2^63, 2^63) give `i64::MIN`.
pub fn f64_to_i64(value: f64) -> i64 {
    // 2^63 is exactly representable; i64::MAX is not, so the upper bound is exclusive.
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    if (-TWO_POW_63..TWO_POW_63).contains(&value) {
        value as i64
    } else {
        i64::MIN
    }
}

macro_rules! cast_with {
    ($from:ty => $to:ty, |$v:ident| $body:expr) => {
        impl CastFrom<$from> for $to {
            fn cast_from($v: $from) -> $to {
                $body
            }
        }
    };
}

// Every pair is listed so the semantics of each conversion are visible in one place.
cast_with!(bool => bool, |v| v);
cast_with!(bool => i32, |v| v as i32);
cast_with!(bool => i64, |v| v as i64);
cast_with!(bool => f32, |v| if v { 1.0 } else { 0.0 });
cast_with!(bool => f64, |v| if v { 1.0 } else { 0.0 });

cast_with!(i32 => bool, |v| v != 0);
cast_with!(i32 => i32, |v| v);
cast_with!(i32 => i64, |v| v as i64);
// Integer to float rounds to nearest, ties to even, as the x86 conversion does.
cast_with!(i32 => f32, |v| v as f32);
cast_with!(i32 => f64, |v| v as f64);

cast_with!(i64 => bool, |v| v != 0);
// Narrowing integers keep the low 32 bits (two's complement wrap).
cast_with!(i64 => i32, |v| v as i32);
cast_with!(i64 => i64, |v| v);
// Direct rounding: going through f64 could round twice.
cast_with!(i64 => f32, |v| v as f32);
cast_with!(i64 => f64, |v| v as f64);

cast_with!(f32 => bool, |v| v != 0.0);
cast_with!(f32 => i32, |v| f64_to_i32(v as f64));
cast_with!(f32 => i64, |v| f64_to_i64(v as f64));
cast_with!(f32 => f32, |v| v);
cast_with!(f32 => f64, |v| v as f64);

cast_with!(f64 => bool, |v| v != 0.0);
cast_with!(f64 => i32, |v| f64_to_i32(v));
cast_with!(f64 => i64, |v| f64_to_i64(v));
// Rounds to nearest; values beyond f32's range become ±inf.
cast_with!(f64 => f32, |v| v as f32);
cast_with!(f64 => f64, |v| v);

fn convert<S: Copy, T: CastFrom<S>>(array: &ArrayD<S>) -> ArrayD<T> {
    array.mapv(T::cast_from)
}

/// `x.astype(to)`: every element converted with NumPy's semantics.
pub fn cast(x: &ArrayData, to: DType) -> ArrayData {
    into_c_order(with_array!(x, a => match to {
        DType::Bool => ArrayData::Bool(convert(a)),
        DType::Int32 => ArrayData::Int32(convert(a)),
        DType::Int64 => ArrayData::Int64(convert(a)),
        DType::Float32 => ArrayData::Float32(convert(a)),
        DType::Float64 => ArrayData::Float64(convert(a)),
    }))
}

/// `x` in dtype `to`, borrowed when it already has that dtype.
pub(crate) fn cast_to(x: &ArrayData, to: DType) -> Cow<'_, ArrayData> {
    if x.dtype() == to {
        Cow::Borrowed(x)
    } else {
        Cow::Owned(cast(x, to))
    }
}

fn convert_scalar<S, T: CastFrom<S>>(value: S) -> T {
    T::cast_from(value)
}

/// One value converted with the same semantics as [`cast`].
pub fn cast_scalar(value: Scalar, to: DType) -> Scalar {
    macro_rules! to_dtype {
        ($v:expr) => {
            match to {
                DType::Bool => Scalar::Bool(convert_scalar($v)),
                DType::Int32 => Scalar::Int32(convert_scalar($v)),
                DType::Int64 => Scalar::Int64(convert_scalar($v)),
                DType::Float32 => Scalar::Float32(convert_scalar($v)),
                DType::Float64 => Scalar::Float64(convert_scalar($v)),
            }
        };
    }
    match value {
        Scalar::Bool(v) => to_dtype!(v),
        Scalar::Int32(v) => to_dtype!(v),
        Scalar::Int64(v) => to_dtype!(v),
        Scalar::Float32(v) => to_dtype!(v),
        Scalar::Float64(v) => to_dtype!(v),
    }
}

/// An element type every dtype converts to, so a [`Scalar`] of any dtype can be read
/// as it.
pub trait FromScalar:
    CastFrom<bool> + CastFrom<i32> + CastFrom<i64> + CastFrom<f32> + CastFrom<f64>
{
    fn from_scalar(value: Scalar) -> Self {
        match value {
            Scalar::Bool(v) => Self::cast_from(v),
            Scalar::Int32(v) => Self::cast_from(v),
            Scalar::Int64(v) => Self::cast_from(v),
            Scalar::Float32(v) => Self::cast_from(v),
            Scalar::Float64(v) => Self::cast_from(v),
        }
    }
}

impl<T> FromScalar for T where
    T: CastFrom<bool> + CastFrom<i32> + CastFrom<i64> + CastFrom<f32> + CastFrom<f64>
{
}

#[cfg(test)]
mod tests {
    //! Expected values computed by NumPy 2.4 on x86-64 with `astype`.

    use super::*;
    use ndarray::arr1;

    fn f64_array(values: &[f64]) -> ArrayData {
        ArrayData::Float64(arr1(values).into_dyn())
    }

    #[test]
    fn float64_to_int32_truncates_and_maps_the_rest_to_min() {
        let x = f64_array(&[
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3e9,
            -3e9,
            1e19,
            -1e19,
            2147483647.9,
            -2147483648.9,
            -0.9,
        ]);
        let min = i32::MIN;
        let expected = [min, min, min, min, min, min, min, 2147483647, min, 0];
        assert_eq!(
            cast(&x, DType::Int32),
            ArrayData::Int32(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn float64_to_int64_maps_nan_inf_and_out_of_range_to_min() {
        let x = f64_array(&[
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3e9,
            1e19,
            -1e19,
            9.223_372_036_854_776e18,
            -9.223_372_036_854_776e18,
            -0.0,
        ]);
        let min = i64::MIN;
        let expected = [min, min, min, 3_000_000_000, min, min, min, min, 0];
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn float32_to_ints() {
        let x = ArrayData::Float32(arr1(&[f32::NAN, 3e9, -3e9, 2147483520.0]).into_dyn());
        let expected = [i32::MIN, i32::MIN, i32::MIN, 2147483520];
        assert_eq!(
            cast(&x, DType::Int32),
            ArrayData::Int32(arr1(&expected).into_dyn())
        );
        let x = ArrayData::Float32(arr1(&[f32::NAN, 1e19, -1e19, f32::INFINITY]).into_dyn());
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&[i64::MIN; 4]).into_dyn())
        );
    }

    #[test]
    fn anything_to_bool_is_nonzero_and_nan_is_true() {
        let x = f64_array(&[f64::NAN, 0.0, -0.0, 1e-300]);
        assert_eq!(
            cast(&x, DType::Bool),
            ArrayData::Bool(arr1(&[true, false, false, true]).into_dyn())
        );
        let x = ArrayData::Int32(arr1(&[0, -5]).into_dyn());
        assert_eq!(
            cast(&x, DType::Bool),
            ArrayData::Bool(arr1(&[false, true]).into_dyn())
        );
    }

    #[test]
    fn bool_to_numbers_is_zero_or_one() {
        let x = ArrayData::Bool(arr1(&[true, false]).into_dyn());
        assert_eq!(
            cast(&x, DType::Float32),
            ArrayData::Float32(arr1(&[1.0, 0.0]).into_dyn())
        );
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&[1, 0]).into_dyn())
        );
    }

    #[test]
    fn int64_to_int32_wraps() {
        let x = ArrayData::Int64(arr1(&[(1i64 << 40) + 5, -(1i64 << 31) - 1]).into_dyn());
        assert_eq!(
            cast(&x, DType::Int32),
            ArrayData::Int32(arr1(&[5, 2147483647]).into_dyn())
        );
    }

    #[test]
    fn int64_to_float32_rounds_once() {
        // Through f64 this would round twice and give 2^60.
        let x = ArrayData::Int64(arr1(&[(1i64 << 60) + (1 << 36) + 1, (1 << 24) + 1]).into_dyn());
        let expected = [((1i64 << 60) + (1 << 37)) as f32, 16777216.0];
        assert_eq!(
            cast(&x, DType::Float32),
            ArrayData::Float32(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn float64_to_float32_overflows_to_infinity() {
        let x = f64_array(&[3.7, -3.7, 1e39, -1e39]);
        let expected = [3.7f32, -3.7, f32::INFINITY, f32::NEG_INFINITY];
        assert_eq!(
            cast(&x, DType::Float32),
            ArrayData::Float32(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn cast_scalar_agrees_with_cast() {
        assert_eq!(
            cast_scalar(Scalar::Float64(f64::NAN), DType::Int32),
            Scalar::Int32(i32::MIN)
        );
        assert_eq!(
            cast_scalar(Scalar::Int64(-1), DType::Bool),
            Scalar::Bool(true)
        );
        assert_eq!(
            cast_scalar(Scalar::Float32(-2.9), DType::Int64),
            Scalar::Int64(-2)
        );
    }
}
