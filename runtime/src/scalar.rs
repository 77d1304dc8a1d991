//! A single typed value: constants in plans (fill values, clip bounds) and 0-d results.

use crate::complex::{C128, C64};
use crate::convert::CastFrom;
use crate::dtype::DType;
use half::f16;
use std::fmt;

/// A scalar with an exact dtype.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int8(i8),
    Int16(i16),
    Int32(i32),
    Int64(i64),
    UInt8(u8),
    UInt16(u16),
    UInt32(u32),
    UInt64(u64),
    Float16(half::f16),
    Float32(f32),
    Float64(f64),
    Complex64(crate::complex::C64),
    Complex128(crate::complex::C128),
}

/// Runs `$body` with `$v` bound to the scalar's value whatever its dtype.
#[macro_export]
macro_rules! with_scalar {
    ($value:expr, $v:ident => $body:expr) => {
        match $value {
            $crate::scalar::Scalar::Bool($v) => $body,
            $crate::scalar::Scalar::Int8($v) => $body,
            $crate::scalar::Scalar::Int16($v) => $body,
            $crate::scalar::Scalar::Int32($v) => $body,
            $crate::scalar::Scalar::Int64($v) => $body,
            $crate::scalar::Scalar::UInt8($v) => $body,
            $crate::scalar::Scalar::UInt16($v) => $body,
            $crate::scalar::Scalar::UInt32($v) => $body,
            $crate::scalar::Scalar::UInt64($v) => $body,
            $crate::scalar::Scalar::Float16($v) => $body,
            $crate::scalar::Scalar::Float32($v) => $body,
            $crate::scalar::Scalar::Float64($v) => $body,
            $crate::scalar::Scalar::Complex64($v) => $body,
            $crate::scalar::Scalar::Complex128($v) => $body,
        }
    };
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int8(_) => DType::Int8,
            Scalar::Int16(_) => DType::Int16,
            Scalar::Int32(_) => DType::Int32,
            Scalar::Int64(_) => DType::Int64,
            Scalar::UInt8(_) => DType::UInt8,
            Scalar::UInt16(_) => DType::UInt16,
            Scalar::UInt32(_) => DType::UInt32,
            Scalar::UInt64(_) => DType::UInt64,
            Scalar::Float16(_) => DType::Float16,
            Scalar::Float32(_) => DType::Float32,
            Scalar::Float64(_) => DType::Float64,
            Scalar::Complex64(_) => DType::Complex64,
            Scalar::Complex128(_) => DType::Complex128,
        }
    }

    pub fn as_f64(self) -> f64 {
        FromScalar::from_scalar(self)
    }

    /// The exact value of an integer or bool scalar (`None` for floats).
    pub fn as_i128(self) -> Option<i128> {
        Some(match self {
            Scalar::Bool(v) => v.into(),
            Scalar::Int8(v) => v.into(),
            Scalar::Int16(v) => v.into(),
            Scalar::Int32(v) => v.into(),
            Scalar::Int64(v) => v.into(),
            Scalar::UInt8(v) => v.into(),
            Scalar::UInt16(v) => v.into(),
            Scalar::UInt32(v) => v.into(),
            Scalar::UInt64(v) => v.into(),
            Scalar::Float16(_)
            | Scalar::Float32(_)
            | Scalar::Float64(_)
            | Scalar::Complex64(_)
            | Scalar::Complex128(_) => return None,
        })
    }

    /// Converts with NumPy's `astype` semantics (float to int truncates toward zero;
    /// NaN and out-of-range values give the integer type's MIN, as NumPy on x86-64).
    pub fn cast(self, to: DType) -> Scalar {
        cast_scalar(self, to)
    }

    /// `v` in dtype `to`, wrapping as C's integer conversions do.
    pub fn from_i64(v: i64, to: DType) -> Scalar {
        Scalar::Int64(v).cast(to)
    }

    pub fn from_f64(v: f64, to: DType) -> Scalar {
        Scalar::Float64(v).cast(to)
    }

    /// The value as a complex128 (`(re, im)`; a real value has imaginary part 0).
    pub fn as_c128(self) -> crate::complex::C128 {
        match self {
            Scalar::Complex64(v) => crate::complex::Cx::new(f64::from(v.re()), f64::from(v.im())),
            Scalar::Complex128(v) => v,
            other => crate::complex::Cx::new(other.as_f64(), 0.0),
        }
    }

    /// `re + im*j` in dtype `to` (the imaginary part dropped for a real `to`, as
    /// NumPy's cast with its ComplexWarning).
    pub fn from_c128(re: f64, im: f64, to: DType) -> Scalar {
        Scalar::Complex128(crate::complex::Cx::new(re, im)).cast(to)
    }
}

impl fmt::Display for Scalar {
    /// Debug-style rendering for dumps (`1.5f64`), not NumPy's print format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Scalar::Int8(v) => write!(f, "{v}i8"),
            Scalar::Int16(v) => write!(f, "{v}i16"),
            Scalar::Int32(v) => write!(f, "{v}i32"),
            Scalar::Int64(v) => write!(f, "{v}i64"),
            Scalar::UInt8(v) => write!(f, "{v}u8"),
            Scalar::UInt16(v) => write!(f, "{v}u16"),
            Scalar::UInt32(v) => write!(f, "{v}u32"),
            Scalar::UInt64(v) => write!(f, "{v}u64"),
            Scalar::Float16(v) => write!(f, "{:?}f16", v.to_f32()),
            Scalar::Float32(v) => write!(f, "{v:?}f32"),
            Scalar::Float64(v) => write!(f, "{v:?}f64"),
            Scalar::Complex64(v) => write!(f, "({:?}{:+?}j)c64", v.re(), v.im()),
            Scalar::Complex128(v) => write!(f, "({:?}{:+?}j)c128", v.re(), v.im()),
        }
    }
}

fn convert_scalar<S, T: CastFrom<S>>(value: S) -> T {
    T::cast_from(value)
}

/// One value converted with the same semantics as the kernels' array `cast`.
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
