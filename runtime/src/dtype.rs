//! The five element types of version 1 and their NumPy names and sizes.

use std::fmt;

/// An element type. Ordered by NumPy's "kind" lattice (bool < ints < floats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    Int32,
    Int64,
    Float32,
    Float64,
}

impl DType {
    pub const ALL: [DType; 5] = [
        DType::Bool,
        DType::Int32,
        DType::Int64,
        DType::Float32,
        DType::Float64,
    ];

    /// NumPy's name (`float64`).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }

    pub fn from_name(name: &str) -> Option<DType> {
        Some(match name {
            "bool" | "bool_" | "?" | "b1" => DType::Bool,
            "int32" | "i4" | "<i4" => DType::Int32,
            "int64" | "int" | "i8" | "<i8" | "int_" => DType::Int64,
            "float32" | "f4" | "<f4" | "single" => DType::Float32,
            "float64" | "float" | "f8" | "<f8" | "double" | "float_" => DType::Float64,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn itemsize(self) -> usize {
        match self {
            DType::Bool => 1,
            DType::Int32 | DType::Float32 => 4,
            DType::Int64 | DType::Float64 => 8,
        }
    }

    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }

    pub fn is_int(self) -> bool {
        matches!(self, DType::Int32 | DType::Int64)
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64)
    }

    /// The `.npy` header descriptor (little-endian), e.g. `<f8`.
    pub fn npy_descr(self) -> &'static str {
        match self {
            DType::Bool => "|b1",
            DType::Int32 => "<i4",
            DType::Int64 => "<i8",
            DType::Float32 => "<f4",
            DType::Float64 => "<f8",
        }
    }

    pub fn from_npy_descr(descr: &str) -> Option<DType> {
        Some(match descr {
            "|b1" | "<b1" | "b1" | "?" => DType::Bool,
            "<i4" | "|i4" => DType::Int32,
            "<i8" | "|i8" => DType::Int64,
            "<f4" | "|f4" => DType::Float32,
            "<f8" | "|f8" => DType::Float64,
            _ => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
