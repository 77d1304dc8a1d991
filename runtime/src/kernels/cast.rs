//! Element type conversions with NumPy's `astype` semantics as x86-64 builds of NumPy
//! produce them. Float to integer is written out explicitly: NumPy truncates toward
//! zero and turns NaN, ±inf and out-of-range values into the integer type's minimum
//! (what the x86 `cvttsd2si` instruction gives), whereas Rust's `as` saturates.

use crate::array::ArrayData;
use crate::complex::{Cx, C128, C64};
use crate::dtype::DType;
use crate::kernels::element::into_c_order;
use crate::scalar::Scalar;
use crate::with_array;
use half::f16;
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

/// `f64` to float16, rounded once to nearest even. (`half`'s own conversion rounds
/// through float32, or drops the low mantissa bits, so a value just above a float16
/// tie can round down.) The float32 step rounds to odd, which keeps the bits that
/// decide the float16 rounding.
pub fn f64_to_f16(value: f64) -> f16 {
    let narrow = value as f32;
    if !narrow.is_finite() || f64::from(narrow) == value {
        return f16::from_f32(narrow);
    }
    let toward_zero = if f64::from(narrow).abs() > value.abs() {
        narrow.to_bits() - 1
    } else {
        narrow.to_bits()
    };
    f16::from_f32(f32::from_bits(toward_zero | 1))
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

/// `f64` to `u64`: truncation toward zero for values in [0, 2^64); below that, the
/// `i64` conversion's bits (so `-1.5` gives 2^64 - 1, as NumPy); NaN and values past
/// the range give 2^63. (C leaves out-of-range conversions undefined; NumPy's
/// results for them vary with the machine's vector unit.)
pub fn f64_to_u64(value: f64) -> u64 {
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    if (0.0..TWO_POW_64).contains(&value) {
        value as u64
    } else {
        f64_to_i64(value) as u64
    }
}

// Semantics of each conversion, by source kind:
// - bool is 0 or 1;
// - integer to integer keeps the low bits (two's complement wrap, C's conversion);
// - integer to float rounds to nearest, ties to even, directly (going through f64
//   could round twice);
// - float to a narrow integer (8 to 32 bits) goes through `f64_to_i32` (`f64_to_i64`
//   for uint32) and keeps the low bits, as NumPy on x86-64;
// - float to float rounds to nearest; values beyond f32's range become ±inf;
// - float16 reads as the float32 it widens to exactly, and everything else becomes
//   float16 by one rounding to nearest even (an integer through float32, which holds
//   every integer float16 does not round to inf exactly), as NumPy's casts.
macro_rules! casts_from_bool {
    ($($to:ty),*) => {
        cast_with!(bool => bool, |v| v);
        $(cast_with!(bool => $to, |v| v as $to);)*
        cast_with!(bool => f16, |v| if v { f16::ONE } else { f16::ZERO });
        cast_with!(bool => f32, |v| if v { 1.0 } else { 0.0 });
        cast_with!(bool => f64, |v| if v { 1.0 } else { 0.0 });
    };
}
casts_from_bool!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! casts_from_int {
    ($from:ty) => {
        cast_with!($from => bool, |v| v != 0);
        cast_with!($from => i8, |v| v as i8);
        cast_with!($from => i16, |v| v as i16);
        cast_with!($from => i32, |v| v as i32);
        cast_with!($from => i64, |v| v as i64);
        cast_with!($from => u8, |v| v as u8);
        cast_with!($from => u16, |v| v as u16);
        cast_with!($from => u32, |v| v as u32);
        cast_with!($from => u64, |v| v as u64);
        cast_with!($from => f16, |v| f16::from_f32(v as f32));
        cast_with!($from => f32, |v| v as f32);
        cast_with!($from => f64, |v| v as f64);
    };
}
casts_from_int!(i8);
casts_from_int!(i16);
casts_from_int!(i32);
casts_from_int!(i64);
casts_from_int!(u8);
casts_from_int!(u16);
casts_from_int!(u32);
casts_from_int!(u64);

macro_rules! casts_from_float {
    ($from:ty) => {
        cast_with!($from => bool, |v| v != 0.0);
        cast_with!($from => i8, |v| f64_to_i32(v as f64) as i8);
        cast_with!($from => i16, |v| f64_to_i32(v as f64) as i16);
        cast_with!($from => i32, |v| f64_to_i32(v as f64));
        cast_with!($from => i64, |v| f64_to_i64(v as f64));
        cast_with!($from => u8, |v| f64_to_i32(v as f64) as u8);
        cast_with!($from => u16, |v| f64_to_i32(v as f64) as u16);
        cast_with!($from => u32, |v| f64_to_i64(v as f64) as u32);
        cast_with!($from => u64, |v| f64_to_u64(v as f64));
    };
}
casts_from_float!(f32);
casts_from_float!(f64);
macro_rules! casts_from_f16 {
    ($($to:ty),*) => {$(
        cast_with!(f16 => $to, |v| <$to>::cast_from(v.to_f32()));
    )*};
}
casts_from_f16!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
cast_with!(f16 => f16, |v| v);
cast_with!(f32 => f16, |v| f16::from_f32(v));
cast_with!(f64 => f16, |v| f64_to_f16(v));
cast_with!(f32 => f32, |v| v);
cast_with!(f32 => f64, |v| v as f64);
cast_with!(f64 => f32, |v| v as f32);
cast_with!(f64 => f64, |v| v);

// complex: a real value is the real part (imaginary part 0, its real part cast as
// the float of the complex dtype's width); a complex value cast to a real dtype
// drops its imaginary part (NumPy's ComplexWarning), except bool: either part
// nonzero.
macro_rules! casts_with_complex {
    ($($real:ty),*) => {$(
        cast_with!($real => C64, |v| Cx::new(f32::cast_from(v), 0.0));
        cast_with!($real => C128, |v| Cx::new(f64::cast_from(v), 0.0));
        cast_with!(C64 => $real, |v| <$real>::cast_from(v.re()));
        cast_with!(C128 => $real, |v| <$real>::cast_from(v.re()));
    )*};
}
casts_with_complex!(i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64);
cast_with!(bool => C64, |v| Cx::new(f32::cast_from(v), 0.0));
cast_with!(bool => C128, |v| Cx::new(f64::cast_from(v), 0.0));
cast_with!(C64 => bool, |v| v.is_truthy());
cast_with!(C128 => bool, |v| v.is_truthy());
cast_with!(C64 => C64, |v| v);
cast_with!(C128 => C128, |v| v);
cast_with!(C64 => C128, |v| Cx::new(f64::from(v.re()), f64::from(v.im())));
cast_with!(C128 => C64, |v| Cx::new(v.re() as f32, v.im() as f32));

fn convert<S: Copy, T: CastFrom<S>>(array: &ArrayD<S>) -> ArrayD<T> {
    array.mapv(T::cast_from)
}

/// `x.astype(to)`: every element converted with NumPy's semantics.
pub fn cast(x: &ArrayData, to: DType) -> ArrayData {
    into_c_order(with_array!(x, a => match to {
        DType::Bool => ArrayData::Bool(convert(a)),
        DType::Int8 => ArrayData::Int8(convert(a)),
        DType::Int16 => ArrayData::Int16(convert(a)),
        DType::Int32 => ArrayData::Int32(convert(a)),
        DType::Int64 => ArrayData::Int64(convert(a)),
        DType::UInt8 => ArrayData::UInt8(convert(a)),
        DType::UInt16 => ArrayData::UInt16(convert(a)),
        DType::UInt32 => ArrayData::UInt32(convert(a)),
        DType::UInt64 => ArrayData::UInt64(convert(a)),
        DType::Float16 => ArrayData::Float16(convert(a)),
        DType::Float32 => ArrayData::Float32(convert(a)),
        DType::Float64 => ArrayData::Float64(convert(a)),
        DType::Complex64 => ArrayData::Complex64(convert(a)),
        DType::Complex128 => ArrayData::Complex128(convert(a)),
    }))
}

/// An integer array's values as int64 in C order, uint64 values beyond int64
/// saturated (as indices they are out of bounds either way); other dtypes give no
/// values.
pub fn int_values_saturating(x: &ArrayData) -> Vec<i64> {
    match x {
        ArrayData::UInt64(a) => a
            .iter()
            .map(|&v| i64::try_from(v).unwrap_or(i64::MAX))
            .collect(),
        other if other.dtype().is_int() => match cast(other, DType::Int64) {
            ArrayData::Int64(a) => a.iter().copied().collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A float16 array's values as float32 (exactly): NumPy computes every float16
/// ufunc loop in float32 and rounds the result back ([`narrow_to_f16`]).
pub(crate) fn widen_f16(x: &ArrayD<f16>) -> ArrayD<f32> {
    x.mapv(f16::to_f32)
}

/// A float32 result rounded to float16 (to nearest even); other dtypes (a
/// comparison's bools) as they are.
pub(crate) fn narrow_to_f16(x: ArrayData) -> ArrayData {
    match x {
        ArrayData::Float32(a) => ArrayData::Float16(a.mapv(f16::from_f32)),
        other => other,
    }
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
                DType::Int8 => Scalar::Int8(convert_scalar($v)),
                DType::Int16 => Scalar::Int16(convert_scalar($v)),
                DType::Int32 => Scalar::Int32(convert_scalar($v)),
                DType::Int64 => Scalar::Int64(convert_scalar($v)),
                DType::UInt8 => Scalar::UInt8(convert_scalar($v)),
                DType::UInt16 => Scalar::UInt16(convert_scalar($v)),
                DType::UInt32 => Scalar::UInt32(convert_scalar($v)),
                DType::UInt64 => Scalar::UInt64(convert_scalar($v)),
                DType::Float16 => Scalar::Float16(convert_scalar($v)),
                DType::Float32 => Scalar::Float32(convert_scalar($v)),
                DType::Float64 => Scalar::Float64(convert_scalar($v)),
                DType::Complex64 => Scalar::Complex64(convert_scalar($v)),
                DType::Complex128 => Scalar::Complex128(convert_scalar($v)),
            }
        };
    }
    crate::with_scalar!(value, v => to_dtype!(v))
}

/// An element type every dtype converts to, so a [`Scalar`] of any dtype can be read
/// as it.
pub trait FromScalar: Sized {
    fn from_scalar(value: Scalar) -> Self;
}

macro_rules! from_scalar {
    ($($t:ty),*) => {$(
        impl FromScalar for $t {
            fn from_scalar(value: Scalar) -> $t {
                crate::with_scalar!(value, v => <$t>::cast_from(v))
            }
        }
    )*};
}
from_scalar!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, C64, C128);

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

    #[test]
    fn floats_to_small_and_unsigned_ints_as_numpy_on_x86_64() {
        // `np.array(v).astype(t)` for the in-range values and the wrapped negatives,
        // where NumPy's results do not depend on the machine's vector unit.
        let x = f64_array(&[300.7, -1.5, 65535.9, -129.0, 127.9, -0.5, 4294967295.5]);
        let cases = [
            (DType::Int8, vec![44i128, -1, -1, 127, 127, 0, 0]),
            (DType::Int16, vec![300, -1, -1, -129, 127, 0, 0]),
            (DType::UInt8, vec![44, 255, 255, 127, 127, 0, 0]),
            (DType::UInt16, vec![300, 65535, 65535, 65407, 127, 0, 0]),
            (
                DType::UInt32,
                vec![300, 4294967295, 65535, 4294967167, 127, 0, 4294967295],
            ),
            (
                DType::UInt64,
                vec![
                    300,
                    18446744073709551615,
                    65535,
                    18446744073709551487,
                    127,
                    0,
                    4294967295,
                ],
            ),
        ];
        for (dtype, expected) in cases {
            let got = cast(&x, dtype);
            let values: Vec<i128> = (0..expected.len())
                .map(|i| got.get_flat(i).unwrap().as_i128().unwrap())
                .collect();
            assert_eq!(values, expected, "{dtype}");
        }
    }

    #[test]
    fn float64_to_float16_rounds_once() {
        // `np.array([x]).astype(np.float16).view(np.uint16)`.
        let cases = [
            (1.0 + 2f64.powi(-11) + 2f64.powi(-30), 0x3c01), // above a tie: up
            (1.0 + 2f64.powi(-11), 0x3c00),                  // a tie: to even
            (65519.99, 0x7bff),
            (65520.0, 0x7c00),
            (2f64.powi(-25), 0x0000), // half the smallest subnormal
            (2f64.powi(-25) + 2f64.powi(-60), 0x0001), // just above it
            (-(2f64.powi(-25) + 2f64.powi(-60)), 0x8001),
            (3.0 * 2f64.powi(-26), 0x0001),
            (0.1, 0x2e66),
            (1e300, 0x7c00),
            (-1e-300, 0x8000),
            (2049.0000001, 0x6801),
        ];
        for (value, bits) in cases {
            assert_eq!(f64_to_f16(value).to_bits(), bits, "{value:e}");
        }
        let x = f64_array(&[1.0 + 2f64.powi(-11) + 2f64.powi(-30), f64::NAN]);
        let ArrayData::Float16(halves) = cast(&x, DType::Float16) else {
            panic!("cast to float16 gives float16");
        };
        assert_eq!(halves[[0]].to_bits(), 0x3c01);
        assert!(halves[[1]].is_nan());
    }

    #[test]
    fn float16_to_integers_through_its_float32_value() {
        // np.array([nan, 300.5, -1.5, 7e4, -7]).astype(np.float16).astype(t)
        let x = cast(
            &f64_array(&[f64::NAN, 300.5, -1.5, 7e4, -7.0]),
            DType::Float16,
        );
        let ints = |dtype| {
            let got = cast(&x, dtype);
            (0..5)
                .map(|i| got.get_flat(i).unwrap().as_i128().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(ints(DType::Int8), [0, 44, -1, 0, -7]);
        assert_eq!(ints(DType::UInt8), [0, 44, 255, 0, 249]);
        assert_eq!(
            ints(DType::Int64),
            [i64::MIN.into(), 300, -1, i64::MIN.into(), -7]
        );
    }

    #[test]
    fn integers_wrap_between_widths_and_signs() {
        let x = ArrayData::Int64(arr1(&[-1i64, 256, 65537, 1 << 40]).into_dyn());
        assert_eq!(
            cast(&x, DType::UInt8),
            ArrayData::UInt8(arr1(&[255u8, 0, 1, 0]).into_dyn())
        );
        assert_eq!(
            cast(&x, DType::UInt64),
            ArrayData::UInt64(arr1(&[u64::MAX, 256, 65537, 1 << 40]).into_dyn())
        );
        let x = ArrayData::UInt64(arr1(&[u64::MAX, (1 << 63) + 5]).into_dyn());
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&[-1i64, i64::MIN + 5]).into_dyn())
        );
        assert_eq!(
            cast(&x, DType::Float64),
            ArrayData::Float64(arr1(&[1.8446744073709552e19, 9.223372036854776e18]).into_dyn())
        );
    }
}
