//! The element types marsc computes with, and their NumPy names and sizes: bool,
//! the signed and unsigned integers of 8 to 64 bits, float16, float32, float64,
//! complex64 and complex128.

use std::fmt;

/// An element type. The derived order is only a stable order for tables and maps;
/// NumPy's promotion lattice is `marsc_compiler::infer::dtypes::promote_types`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    Float32,
    Float64,
    Complex64,
    Complex128,
}

impl DType {
    /// Every dtype, in NumPy's table order (`np.typecodes['All']` restricted to ours).
    pub const ALL: [DType; 14] = [
        DType::Bool,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ];

    /// The five dtypes of version 1 (the tables some tests were written against).
    pub const V1: [DType; 5] = [
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
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::UInt8 => "uint8",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
            DType::Float16 => "float16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
        }
    }

    /// The dtype NumPy's `np.dtype(name)` gives for a name or type code.
    pub fn from_name(name: &str) -> Option<DType> {
        Some(match name {
            "bool" | "bool_" | "?" | "b1" => DType::Bool,
            "int8" | "i1" | "|i1" | "byte" | "b" => DType::Int8,
            "int16" | "i2" | "<i2" | "short" | "h" => DType::Int16,
            "int32" | "i4" | "<i4" | "intc" | "i" => DType::Int32,
            "int64" | "int" | "i8" | "<i8" | "int_" | "intp" | "long" | "l" | "q" => DType::Int64,
            "uint8" | "u1" | "|u1" | "ubyte" | "B" => DType::UInt8,
            "uint16" | "u2" | "<u2" | "ushort" | "H" => DType::UInt16,
            "uint32" | "u4" | "<u4" | "uintc" | "I" => DType::UInt32,
            "uint64" | "u8" | "<u8" | "uint" | "uintp" | "ulong" | "L" | "Q" => DType::UInt64,
            "float16" | "f2" | "<f2" | "half" | "e" => DType::Float16,
            "float32" | "f4" | "<f4" | "single" | "f" => DType::Float32,
            "float64" | "float" | "f8" | "<f8" | "double" | "float_" | "d" => DType::Float64,
            "complex64" | "c8" | "<c8" | "csingle" | "F" => DType::Complex64,
            "complex128" | "complex" | "c16" | "<c16" | "cdouble" | "complex_" | "D" => {
                DType::Complex128
            }
            _ => return None,
        })
    }

    /// A number for the dtype that never changes (the version 1 dtypes keep the
    /// numbers they had), for encodings that outlive a build: chunk keys, spill files.
    pub fn code(self) -> u8 {
        match self {
            DType::Bool => 0,
            DType::Int32 => 1,
            DType::Int64 => 2,
            DType::Float32 => 3,
            DType::Float64 => 4,
            DType::Int8 => 5,
            DType::Int16 => 6,
            DType::UInt8 => 7,
            DType::UInt16 => 8,
            DType::UInt32 => 9,
            DType::UInt64 => 10,
            DType::Float16 => 11,
            DType::Complex64 => 12,
            DType::Complex128 => 13,
        }
    }

    /// Bytes per element.
    pub fn itemsize(self) -> usize {
        match self {
            DType::Bool | DType::Int8 | DType::UInt8 => 1,
            DType::Int16 | DType::UInt16 | DType::Float16 => 2,
            DType::Int32 | DType::UInt32 | DType::Float32 => 4,
            DType::Int64 | DType::UInt64 | DType::Float64 | DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }

    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }

    /// Any integer dtype, signed or unsigned (not bool).
    pub fn is_int(self) -> bool {
        self.is_signed_int() || self.is_unsigned()
    }

    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
        )
    }

    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::Float16 | DType::Float32 | DType::Float64)
    }

    pub fn is_complex(self) -> bool {
        matches!(self, DType::Complex64 | DType::Complex128)
    }

    /// A float or complex dtype (NumPy's `inexact`).
    pub fn is_inexact(self) -> bool {
        self.is_float() || self.is_complex()
    }

    /// The float dtype of a complex dtype's parts (`real`, `imag`, `abs`); other
    /// dtypes are their own.
    pub fn real_part(self) -> DType {
        match self {
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            other => other,
        }
    }

    /// The inclusive range of an integer dtype's values, as `i128` (`None` for bool
    /// and floats).
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            DType::Int8 => (i8::MIN.into(), i8::MAX.into()),
            DType::Int16 => (i16::MIN.into(), i16::MAX.into()),
            DType::Int32 => (i32::MIN.into(), i32::MAX.into()),
            DType::Int64 => (i64::MIN.into(), i64::MAX.into()),
            DType::UInt8 => (0, u8::MAX.into()),
            DType::UInt16 => (0, u16::MAX.into()),
            DType::UInt32 => (0, u32::MAX.into()),
            DType::UInt64 => (0, u64::MAX.into()),
            _ => return None,
        })
    }

    /// The `.npy` header descriptor (little-endian), e.g. `<f8`.
    pub fn npy_descr(self) -> &'static str {
        match self {
            DType::Bool => "|b1",
            DType::Int8 => "|i1",
            DType::Int16 => "<i2",
            DType::Int32 => "<i4",
            DType::Int64 => "<i8",
            DType::UInt8 => "|u1",
            DType::UInt16 => "<u2",
            DType::UInt32 => "<u4",
            DType::UInt64 => "<u8",
            DType::Float16 => "<f2",
            DType::Float32 => "<f4",
            DType::Float64 => "<f8",
            DType::Complex64 => "<c8",
            DType::Complex128 => "<c16",
        }
    }

    pub fn from_npy_descr(descr: &str) -> Option<DType> {
        Some(match descr {
            "|b1" | "<b1" | "b1" | "?" => DType::Bool,
            "|i1" | "<i1" | "i1" => DType::Int8,
            "<i2" | "|i2" => DType::Int16,
            "<i4" | "|i4" => DType::Int32,
            "<i8" | "|i8" => DType::Int64,
            "|u1" | "<u1" | "u1" => DType::UInt8,
            "<u2" | "|u2" => DType::UInt16,
            "<u4" | "|u4" => DType::UInt32,
            "<u8" | "|u8" => DType::UInt64,
            "<f2" | "|f2" => DType::Float16,
            "<f4" | "|f4" => DType::Float32,
            "<f8" | "|f8" => DType::Float64,
            "<c8" | "|c8" => DType::Complex64,
            "<c16" | "|c16" => DType::Complex128,
            _ => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
