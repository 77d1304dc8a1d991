//! A single typed value: constants in plans (fill values, clip bounds) and 0-d results.

use crate::dtype::DType;
use std::fmt;

/// A scalar with an exact dtype.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int32(i32),
    Int64(i64),
    Float32(f32),
    Float64(f64),
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int32(_) => DType::Int32,
            Scalar::Int64(_) => DType::Int64,
            Scalar::Float32(_) => DType::Float32,
            Scalar::Float64(_) => DType::Float64,
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int32(v) => v as f64,
            Scalar::Int64(v) => v as f64,
            Scalar::Float32(v) => v as f64,
            Scalar::Float64(v) => v,
        }
    }

    /// Converts with NumPy's `astype` semantics (float to int truncates toward zero;
    /// NaN and out-of-range values give the integer type's MIN, as NumPy on x86-64).
    pub fn cast(self, to: DType) -> Scalar {
        crate::kernels::cast_scalar(self, to)
    }

    pub fn from_i64(v: i64, to: DType) -> Scalar {
        match to {
            DType::Bool => Scalar::Bool(v != 0),
            DType::Int32 => Scalar::Int32(v as i32),
            DType::Int64 => Scalar::Int64(v),
            DType::Float32 => Scalar::Float32(v as f32),
            DType::Float64 => Scalar::Float64(v as f64),
        }
    }

    pub fn from_f64(v: f64, to: DType) -> Scalar {
        Scalar::Float64(v).cast(to)
    }
}

impl fmt::Display for Scalar {
    /// Debug-style rendering for dumps (`1.5f64`), not NumPy's print format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Scalar::Int32(v) => write!(f, "{v}i32"),
            Scalar::Int64(v) => write!(f, "{v}i64"),
            Scalar::Float32(v) => write!(f, "{v:?}f32"),
            Scalar::Float64(v) => write!(f, "{v:?}f64"),
        }
    }
}
