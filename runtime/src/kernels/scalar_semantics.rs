//! The scalar semantics of every element-wise operation whose NumPy behaviour is not
//! simply IEEE arithmetic or a libm call: floor division and remainder with Python's
//! signs, integer powers, NaN-aware maxima, `sign`, and the integer `reciprocal`.
//! Kernels call these in their inner loops; a JIT must reproduce them exactly.

use crate::convert::CastFrom;
use crate::kernels::element::Element;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Rem, Sub};

/// `f32` and `f64`, with the math functions of their own width (f32 math is never
/// computed through f64) and `%` being C's `fmod`.
pub trait Float:
    Element
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const HALF: Self;

    /// `index` converted with round-to-nearest, as C converts an integer to float.
    fn from_index(index: usize) -> Self;

    fn abs(self) -> Self;
    fn copysign(self, sign: Self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn trunc(self) -> Self;
    /// Round half to even (C's `rint` in the default rounding mode).
    fn rint(self) -> Self;
    fn sqrt(self) -> Self;
    fn exp(self) -> Self;
    fn exp_m1(self) -> Self;
    fn ln(self) -> Self;
    fn ln_1p(self) -> Self;
    fn log2(self) -> Self;
    fn log10(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tan(self) -> Self;
    fn asin(self) -> Self;
    fn acos(self) -> Self;
    fn atan(self) -> Self;
    fn sinh(self) -> Self;
    fn cosh(self) -> Self;
    fn tanh(self) -> Self;
    fn powf(self, exponent: Self) -> Self;
    /// `atan2(self, x)`: the angle of the point (x, self).
    fn atan2(self, x: Self) -> Self;
    fn hypot(self, other: Self) -> Self;
}

macro_rules! impl_float {
    ($t:ty) => {
        impl Float for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const HALF: $t = 0.5;

            fn from_index(index: usize) -> $t {
                index as $t
            }
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
            fn copysign(self, sign: $t) -> $t {
                <$t>::copysign(self, sign)
            }
            fn floor(self) -> $t {
                <$t>::floor(self)
            }
            fn ceil(self) -> $t {
                <$t>::ceil(self)
            }
            fn trunc(self) -> $t {
                <$t>::trunc(self)
            }
            fn rint(self) -> $t {
                <$t>::round_ties_even(self)
            }
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            fn exp(self) -> $t {
                <$t>::exp(self)
            }
            fn exp_m1(self) -> $t {
                <$t>::exp_m1(self)
            }
            fn ln(self) -> $t {
                <$t>::ln(self)
            }
            fn ln_1p(self) -> $t {
                <$t>::ln_1p(self)
            }
            fn log2(self) -> $t {
                <$t>::log2(self)
            }
            fn log10(self) -> $t {
                <$t>::log10(self)
            }
            fn sin(self) -> $t {
                <$t>::sin(self)
            }
            fn cos(self) -> $t {
                <$t>::cos(self)
            }
            fn tan(self) -> $t {
                <$t>::tan(self)
            }
            fn asin(self) -> $t {
                <$t>::asin(self)
            }
            fn acos(self) -> $t {
                <$t>::acos(self)
            }
            fn atan(self) -> $t {
                <$t>::atan(self)
            }
            fn sinh(self) -> $t {
                <$t>::sinh(self)
            }
            fn cosh(self) -> $t {
                <$t>::cosh(self)
            }
            fn tanh(self) -> $t {
                <$t>::tanh(self)
            }
            fn powf(self, exponent: $t) -> $t {
                <$t>::powf(self, exponent)
            }
            fn atan2(self, x: $t) -> $t {
                <$t>::atan2(self, x)
            }
            fn hypot(self, other: $t) -> $t {
                <$t>::hypot(self, other)
            }
        }
    };
}

impl_float!(f32);
impl_float!(f64);

/// The signed and unsigned integers. Arithmetic wraps, as NumPy's C loops do on
/// every platform.
pub trait Int:
    Element
    + Ord
    + CastFrom<f64>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;

    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn wrapping_mul(self, other: Self) -> Self;
    fn wrapping_neg(self) -> Self;
    fn wrapping_abs(self) -> Self;
    /// Truncating division; `MIN / -1` wraps to `MIN`. The divisor must be nonzero.
    fn wrapping_div(self, other: Self) -> Self;
    /// C's `%`; `MIN % -1` is 0. The divisor must be nonzero.
    fn wrapping_rem(self, other: Self) -> Self;
    fn signum(self) -> Self;
    fn to_f64(self) -> f64;
}

macro_rules! impl_int {
    ($t:ty, abs: $abs:expr, signum: $signum:expr) => {
        impl Int for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;

            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            fn wrapping_mul(self, other: $t) -> $t {
                <$t>::wrapping_mul(self, other)
            }
            fn wrapping_neg(self) -> $t {
                <$t>::wrapping_neg(self)
            }
            fn wrapping_abs(self) -> $t {
                ($abs)(self)
            }
            fn wrapping_div(self, other: $t) -> $t {
                <$t>::wrapping_div(self, other)
            }
            fn wrapping_rem(self, other: $t) -> $t {
                <$t>::wrapping_rem(self, other)
            }
            fn signum(self) -> $t {
                ($signum)(self)
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

macro_rules! impl_signed {
    ($($t:ty),*) => {$(
        impl_int!($t, abs: <$t>::wrapping_abs, signum: <$t>::signum);
    )*};
}
macro_rules! impl_unsigned {
    ($($t:ty),*) => {$(
        impl_int!($t, abs: |v: $t| v, signum: |v: $t| <$t>::from(v != 0));
    )*};
}
impl_signed!(i8, i16, i32, i64);
impl_unsigned!(u8, u16, u32, u64);

/// `np.sign` on floats: -1, 0 or 1; `sign(-0.0)` is `+0.0` and `sign(nan)` is NaN.
pub fn float_sign<F: Float>(x: F) -> F {
    if x > F::ZERO {
        F::ONE
    } else if x < F::ZERO {
        -F::ONE
    } else if x == F::ZERO {
        F::ZERO
    } else {
        x
    }
}

/// `np.maximum`: NaN if either is NaN (the first NaN seen); between equal values
/// (`-0.0` and `0.0`) the second operand, as NumPy's SIMD loops return.
pub fn float_maximum<F: Float>(a: F, b: F) -> F {
    if a.is_nan() || a > b {
        a
    } else {
        b
    }
}

/// `np.minimum`: the mirror of [`float_maximum`].
pub fn float_minimum<F: Float>(a: F, b: F) -> F {
    if a.is_nan() || a < b {
        a
    } else {
        b
    }
}

/// `np.fmax`: like `maximum` but a NaN operand is ignored (NaN only if both are).
pub fn float_fmax<F: Float>(a: F, b: F) -> F {
    if b.is_nan() || a > b {
        a
    } else {
        b
    }
}

/// `np.fmin`: like `minimum` but a NaN operand is ignored (NaN only if both are).
pub fn float_fmin<F: Float>(a: F, b: F) -> F {
    if b.is_nan() || a < b {
        a
    } else {
        b
    }
}

/// NumPy's `npy_divmod`: the floored quotient and the remainder with the sign of the
/// divisor, computed from `fmod` so that `a == q * b + r` as nearly as floats allow.
pub fn float_divmod<F: Float>(a: F, b: F) -> (F, F) {
    let mut modulus = a % b;
    if b == F::ZERO {
        return (a / b, modulus);
    }
    // `a - modulus` is very nearly an integer multiple of `b`.
    let mut quotient = (a - modulus) / b;
    // A NaN modulus counts as nonzero, as in C.
    if modulus != F::ZERO {
        if (b < F::ZERO) != (modulus < F::ZERO) {
            modulus = modulus + b;
            quotient = quotient - F::ONE;
        }
    } else {
        modulus = F::ZERO.copysign(b);
    }
    let floored = if quotient != F::ZERO {
        let floor = quotient.floor();
        // Snap to the nearest integer: the division above may land just below it.
        if quotient - floor > F::HALF {
            floor + F::ONE
        } else {
            floor
        }
    } else {
        F::ZERO.copysign(a / b)
    };
    (floored, modulus)
}

/// `np.floor_divide` on floats (`npy_floor_divide`): `a / b` when `b` is zero
/// (±inf or NaN), otherwise the quotient of [`float_divmod`].
pub fn float_floor_divide<F: Float>(a: F, b: F) -> F {
    if b == F::ZERO {
        a / b
    } else {
        float_divmod(a, b).0
    }
}

/// `np.remainder` on floats (`npy_remainder`): NaN when `b` is zero, otherwise the
/// remainder of [`float_divmod`], which has the sign of `b`.
pub fn float_remainder<F: Float>(a: F, b: F) -> F {
    if b == F::ZERO {
        a % b
    } else {
        float_divmod(a, b).1
    }
}

/// `np.floor_divide` on integers: rounds toward minus infinity (`-7 // 2 == -4`);
/// division by zero gives 0 and `MIN // -1` wraps to `MIN`, as NumPy does.
pub fn int_floor_divide<I: Int>(a: I, b: I) -> I {
    if b == I::ZERO {
        return I::ZERO;
    }
    let quotient = a.wrapping_div(b);
    let remainder = a.wrapping_rem(b);
    if remainder != I::ZERO && ((remainder < I::ZERO) != (b < I::ZERO)) {
        quotient.wrapping_sub(I::ONE)
    } else {
        quotient
    }
}

/// `np.remainder` on integers: the sign of the divisor (`-7 % 2 == 1`,
/// `7 % -2 == -1`); modulo zero gives 0.
pub fn int_remainder<I: Int>(a: I, b: I) -> I {
    if b == I::ZERO {
        return I::ZERO;
    }
    let remainder = a.wrapping_rem(b);
    if remainder != I::ZERO && ((remainder < I::ZERO) != (b < I::ZERO)) {
        remainder.wrapping_add(b)
    } else {
        remainder
    }
}

/// `np.power` on integers by repeated squaring with wrapping multiplication.
/// NumPy rejects negative exponents before computing; callers must too (here a
/// negative exponent gives 0, the integer part of `1 / base**|exponent|` for |base|>1).
pub fn int_power<I: Int>(base: I, exponent: I) -> I {
    if exponent < I::ZERO {
        return I::ZERO;
    }
    let mut result = I::ONE;
    let mut square = base;
    let mut remaining = exponent;
    while remaining != I::ZERO {
        if remaining & I::ONE != I::ZERO {
            result = result.wrapping_mul(square);
        }
        remaining = int_halve(remaining);
        if remaining != I::ZERO {
            square = square.wrapping_mul(square);
        }
    }
    result
}

/// `value / 2` for a non-negative value.
fn int_halve<I: Int>(value: I) -> I {
    value.wrapping_div(I::ONE.wrapping_add(I::ONE))
}

/// `np.reciprocal` on integers: NumPy computes `1.0 / x` in double and converts back,
/// so it is 0 for |x| > 1 and `MIN` for 0 (the conversion of inf).
pub fn int_reciprocal<I: Int>(x: I) -> I {
    I::cast_from(1.0 / x.to_f64())
}

#[cfg(test)]
mod divmod_vectors;
#[cfg(test)]
mod tests;
