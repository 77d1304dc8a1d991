//! Element conversions, one value at a time, with NumPy's `astype` semantics as x86-64
//! builds of NumPy produce them ([`CastFrom`]). Float to integer is written out
//! explicitly: NumPy truncates toward zero and turns NaN, ±inf and out-of-range values
//! into the integer type's minimum (what the x86 `cvttsd2si` instruction gives),
//! whereas Rust's `as` saturates.
//!
//! The bottom of the value layers: a [`crate::scalar::Scalar`]'s casts and the
//! kernels' array casts (`kernels::cast`) are both built on it, and it depends on
//! nothing but the element types.

use crate::complex::{Cx, C128, C64};
use half::f16;

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
