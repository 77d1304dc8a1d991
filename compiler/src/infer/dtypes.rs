//! Result dtypes of NumPy 2 promotion, with NEP 50's "weak" Python scalars.
//!
//! Under NEP 50 a Python scalar has no dtype of its own, only a kind (bool, int,
//! float). Next to a tensor of the same or a higher kind it takes the tensor's dtype
//! (`float32_tensor * 2.0` is float32); only when its kind is higher does it pull the
//! result up, to the default dtype of its kind (`int32_tensor + 1.5` is float64).

use super::{InferError, InferResult};
use marsc_runtime::DType;

/// One operand of an operation, as promotion sees it: a tensor has a strong dtype,
/// a Python scalar only a kind (and, for ints, a value that must fit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Tensor(DType),
    PyBool,
    PyInt(i64),
    PyFloat,
    PyComplex,
}

/// NumPy's kinds (`dtype.kind`: b, u, i, f, c).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Unsigned,
    Signed,
    Float,
    Complex,
}

impl Kind {
    fn of(dtype: DType) -> Kind {
        if dtype.is_bool() {
            Kind::Bool
        } else if dtype.is_unsigned() {
            Kind::Unsigned
        } else if dtype.is_signed_int() {
            Kind::Signed
        } else if dtype.is_complex() {
            Kind::Complex
        } else {
            Kind::Float
        }
    }

    /// The order `same_kind` casting goes up (b < u < i < f < c).
    fn casting_rank(self) -> u8 {
        match self {
            Kind::Bool => 0,
            Kind::Unsigned => 1,
            Kind::Signed => 2,
            Kind::Float => 3,
            Kind::Complex => 4,
        }
    }

    /// The order NEP 50 compares a Python scalar's kind with a tensor's: an int is
    /// weak next to any integer tensor, signed or not.
    fn weak_rank(self) -> u8 {
        match self {
            Kind::Bool => 0,
            Kind::Unsigned | Kind::Signed => 1,
            Kind::Float => 2,
            Kind::Complex => 3,
        }
    }

    /// The dtype a Python scalar of this kind gets when nothing else decides.
    fn default_dtype(self) -> DType {
        match self {
            Kind::Bool => DType::Bool,
            Kind::Unsigned | Kind::Signed => DType::Int64,
            Kind::Float => DType::Float64,
            Kind::Complex => DType::Complex128,
        }
    }
}

/// The complex dtype whose parts hold `real` (float16's and float32's values are
/// complex64's parts; anything wider needs complex128).
fn complex_of(real: DType) -> DType {
    match real {
        DType::Float16 | DType::Float32 | DType::Complex64 => DType::Complex64,
        _ => DType::Complex128,
    }
}

/// The signed integer of `bits` bits.
fn signed_of_bits(bits: usize) -> DType {
    match bits {
        8 => DType::Int8,
        16 => DType::Int16,
        32 => DType::Int32,
        _ => DType::Int64,
    }
}

/// The float of at least `bits` bits (float64 past it).
fn float_of_bits(bits: usize) -> DType {
    match bits {
        0..=16 => DType::Float16,
        17..=32 => DType::Float32,
        _ => DType::Float64,
    }
}

/// `np.promote_types(a, b)`: the smallest dtype that holds every value of both
/// (NumPy's table: a signed and an unsigned integer meet in a signed integer twice
/// the unsigned one's width, or float64 past int64; a float meets an integer in a
/// float of at least twice the integer's width: float16 holds 8-bit integers
/// exactly, float32 16-bit ones).
pub fn promote_types(a: DType, b: DType) -> DType {
    if a == b || b.is_bool() {
        return a;
    }
    if a.is_bool() {
        return b;
    }
    if a.is_complex() || b.is_complex() {
        // The parts' float is the promotion of the two real dtypes (float32 and
        // int32 meet in float64, so complex64 and int32 in complex128).
        return complex_of(promote_types(a.real_part(), b.real_part()));
    }
    let bits = |d: DType| d.itemsize() * 8;
    match (Kind::of(a), Kind::of(b)) {
        (Kind::Float, Kind::Float) => float_of_bits(bits(a).max(bits(b))),
        (Kind::Float, _) | (_, Kind::Float) => {
            let (float, int) = if a.is_float() { (a, b) } else { (b, a) };
            float_of_bits(bits(float).max(2 * bits(int)))
        }
        (ka, kb) if ka == kb => {
            if bits(a) >= bits(b) {
                a
            } else {
                b
            }
        }
        _ => {
            let (signed, unsigned) = if a.is_signed_int() { (a, b) } else { (b, a) };
            if bits(signed) > bits(unsigned) {
                signed
            } else if bits(unsigned) < 64 {
                signed_of_bits(2 * bits(unsigned))
            } else {
                DType::Float64
            }
        }
    }
}

/// NumPy's `casting=` rules, from strictest to loosest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Casting {
    No,
    Equiv,
    Safe,
    SameKind,
    Unsafe,
}

impl Casting {
    pub fn from_name(name: &str) -> Option<Casting> {
        Some(match name {
            "no" => Casting::No,
            "equiv" => Casting::Equiv,
            "safe" => Casting::Safe,
            "same_kind" => Casting::SameKind,
            "unsafe" => Casting::Unsafe,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Casting::No => "no",
            Casting::Equiv => "equiv",
            Casting::Safe => "safe",
            Casting::SameKind => "same_kind",
            Casting::Unsafe => "unsafe",
        }
    }
}

/// `np.can_cast(from, to, casting)`. Byte order is always native, so `no` and
/// `equiv` both mean the same dtype; `same_kind` allows any cast that does not go
/// down a kind in b < u < i < f (int64 to float32, int64 to int32 and uint64 to
/// int8 pass; float to int and int to uint do not).
pub fn can_cast(from: DType, to: DType, casting: Casting) -> bool {
    match casting {
        Casting::No | Casting::Equiv => from == to,
        Casting::Safe => promote_types(from, to) == to,
        Casting::SameKind => Kind::of(from).casting_rank() <= Kind::of(to).casting_rank(),
        Casting::Unsafe => true,
    }
}

/// `np.result_type` of the operands under NEP 50.
pub fn result_type(operands: &[Operand]) -> InferResult<DType> {
    let mut strong: Option<DType> = None;
    let mut weak_kind: Option<Kind> = None;
    let stronger = |current: Option<Kind>, kind: Kind| match current {
        Some(current) if current.weak_rank() >= kind.weak_rank() => Some(current),
        _ => Some(kind),
    };
    for operand in operands {
        match *operand {
            Operand::Tensor(dtype) => {
                strong = Some(strong.map_or(dtype, |s| promote_types(s, dtype)));
            }
            Operand::PyBool => weak_kind = stronger(weak_kind, Kind::Bool),
            Operand::PyInt(_) => weak_kind = stronger(weak_kind, Kind::Signed),
            Operand::PyFloat => weak_kind = stronger(weak_kind, Kind::Float),
            Operand::PyComplex => weak_kind = stronger(weak_kind, Kind::Complex),
        }
    }
    let result = match (strong, weak_kind) {
        (None, None) => {
            return Err(InferError::new("at least one array or dtype is required"));
        }
        (Some(dtype), None) => dtype,
        (None, Some(kind)) => kind.default_dtype(),
        (Some(dtype), Some(kind)) if Kind::of(dtype).weak_rank() >= kind.weak_rank() => dtype,
        // NEP 50: a Python complex next to a float tensor keeps its precision
        // (`float32 + 1j` is complex64).
        (Some(dtype), Some(Kind::Complex)) if dtype.is_float() => complex_of(dtype),
        (Some(dtype), Some(kind)) => promote_types(dtype, kind.default_dtype()),
    };
    for operand in operands {
        if let Operand::PyInt(value) = *operand {
            check_int_fits(value, result)?;
        }
    }
    Ok(result)
}

/// A weak Python int must be representable in the integer dtype it is cast to.
fn check_int_fits(value: i64, dtype: DType) -> InferResult<()> {
    let fits = dtype
        .int_range()
        .is_none_or(|(low, high)| (low..=high).contains(&i128::from(value)));
    if !fits {
        return Err(
            InferError::new(format!("Python integer {value} out of bounds for {dtype}")).with_help(
                format!(
                "convert the tensor first, e.g. `x.astype('int64')`, to use values beyond {dtype}"
            ),
            ),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn can_cast_matches_numpy_tables() {
        // `np.can_cast(a, b, casting)` for a, b in bool, int32, int64, float32, float64.
        let safe = [
            [true, true, true, true, true],
            [false, true, true, false, true],
            [false, false, true, false, true],
            [false, false, false, true, true],
            [false, false, false, false, true],
        ];
        let same_kind = [
            [true, true, true, true, true],
            [false, true, true, true, true],
            [false, true, true, true, true],
            [false, false, false, true, true],
            [false, false, false, true, true],
        ];
        for (row, &from) in DType::V1.iter().enumerate() {
            for (column, &to) in DType::V1.iter().enumerate() {
                assert_eq!(can_cast(from, to, Casting::Safe), safe[row][column]);
                assert_eq!(
                    can_cast(from, to, Casting::SameKind),
                    same_kind[row][column]
                );
                assert_eq!(can_cast(from, to, Casting::No), row == column);
                assert!(can_cast(from, to, Casting::Unsafe));
            }
        }
    }

    #[test]
    fn promote_types_matches_numpy_table() {
        // Rows and columns in the order bool, int32, int64, float32, float64, as
        // printed by `np.promote_types`.
        let expected = [
            [Bool, Int32, Int64, Float32, Float64],
            [Int32, Int32, Int64, Float64, Float64],
            [Int64, Int64, Int64, Float64, Float64],
            [Float32, Float64, Float64, Float32, Float64],
            [Float64, Float64, Float64, Float64, Float64],
        ];
        for (row, a) in DType::V1.iter().enumerate() {
            for (col, b) in DType::V1.iter().enumerate() {
                assert_eq!(promote_types(*a, *b), expected[row][col], "{a} + {b}");
            }
        }
    }

    #[test]
    fn weak_scalars_take_the_tensor_kind() {
        let cases = [
            (vec![Operand::Tensor(Int32), Operand::PyInt(2)], Int32),
            (vec![Operand::Tensor(Float32), Operand::PyFloat], Float32),
            (
                vec![Operand::Tensor(Float32), Operand::PyInt(1 << 40)],
                Float32,
            ),
            (vec![Operand::Tensor(Bool), Operand::PyInt(1)], Int64),
            (vec![Operand::Tensor(Bool), Operand::PyBool], Bool),
            (vec![Operand::Tensor(Int32), Operand::PyBool], Int32),
            (vec![Operand::Tensor(Int32), Operand::PyFloat], Float64),
            (vec![Operand::Tensor(Bool), Operand::PyInt(1 << 40)], Int64),
            (
                vec![
                    Operand::Tensor(Int32),
                    Operand::Tensor(Float32),
                    Operand::PyInt(1),
                ],
                Float64,
            ),
            (
                vec![Operand::Tensor(Int32), Operand::Tensor(Float32)],
                Float64,
            ),
        ];
        for (operands, expected) in cases {
            assert_eq!(result_type(&operands), Ok(expected), "{operands:?}");
        }
    }

    #[test]
    fn scalars_alone_get_default_dtypes() {
        assert_eq!(result_type(&[Operand::PyBool]), Ok(Bool));
        assert_eq!(
            result_type(&[Operand::PyBool, Operand::PyInt(1)]),
            Ok(Int64)
        );
        assert_eq!(
            result_type(&[Operand::PyFloat, Operand::PyInt(1)]),
            Ok(Float64)
        );
        assert!(result_type(&[]).is_err());
    }

    #[test]
    fn out_of_range_int_is_numpys_overflow_error() {
        let err = result_type(&[Operand::Tensor(Int32), Operand::PyInt(1 << 40)]).unwrap_err();
        assert_eq!(
            err.message,
            "Python integer 1099511627776 out of bounds for int32"
        );
        let err = result_type(&[Operand::PyInt(-(1 << 40)), Operand::Tensor(Int32)]).unwrap_err();
        assert_eq!(
            err.message,
            "Python integer -1099511627776 out of bounds for int32"
        );
        assert_eq!(
            result_type(&[Operand::Tensor(Int32), Operand::PyInt(i32::MIN.into())]),
            Ok(Int32)
        );
    }

    /// `np.promote_types` and `np.can_cast` of NumPy 2.4 for every pair of dtypes,
    /// rows and columns in `DType::ALL`'s order.
    #[test]
    fn promotion_and_casting_match_numpy_for_every_dtype() {
        let promote = [
            [
                Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32,
                Float64, Complex64, Complex128,
            ],
            [
                Int8, Int8, Int16, Int32, Int64, Int16, Int32, Int64, Float64, Float16, Float32,
                Float64, Complex64, Complex128,
            ],
            [
                Int16, Int16, Int16, Int32, Int64, Int16, Int32, Int64, Float64, Float32, Float32,
                Float64, Complex64, Complex128,
            ],
            [
                Int32, Int32, Int32, Int32, Int64, Int32, Int32, Int64, Float64, Float64, Float64,
                Float64, Complex128, Complex128,
            ],
            [
                Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Float64, Float64, Float64,
                Float64, Complex128, Complex128,
            ],
            [
                UInt8, Int16, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32,
                Float64, Complex64, Complex128,
            ],
            [
                UInt16, Int32, Int32, Int32, Int64, UInt16, UInt16, UInt32, UInt64, Float32,
                Float32, Float64, Complex64, Complex128,
            ],
            [
                UInt32, Int64, Int64, Int64, Int64, UInt32, UInt32, UInt32, UInt64, Float64,
                Float64, Float64, Complex128, Complex128,
            ],
            [
                UInt64, Float64, Float64, Float64, Float64, UInt64, UInt64, UInt64, UInt64,
                Float64, Float64, Float64, Complex128, Complex128,
            ],
            [
                Float16, Float16, Float32, Float64, Float64, Float16, Float32, Float64, Float64,
                Float16, Float32, Float64, Complex64, Complex128,
            ],
            [
                Float32, Float32, Float32, Float64, Float64, Float32, Float32, Float64, Float64,
                Float32, Float32, Float64, Complex64, Complex128,
            ],
            [
                Float64, Float64, Float64, Float64, Float64, Float64, Float64, Float64, Float64,
                Float64, Float64, Float64, Complex128, Complex128,
            ],
            [
                Complex64, Complex64, Complex64, Complex128, Complex128, Complex64, Complex64,
                Complex128, Complex128, Complex64, Complex64, Complex128, Complex64, Complex128,
            ],
            [
                Complex128, Complex128, Complex128, Complex128, Complex128, Complex128, Complex128,
                Complex128, Complex128, Complex128, Complex128, Complex128, Complex128, Complex128,
            ],
        ];
        let safe = [
            "11111111111111",
            "01111000011111",
            "00111000001111",
            "00011000000101",
            "00001000000101",
            "00111111111111",
            "00011011101111",
            "00001001100101",
            "00000000100101",
            "00000000011111",
            "00000000001111",
            "00000000000101",
            "00000000000011",
            "00000000000001",
        ];
        let same_kind = [
            "11111111111111",
            "01111000011111",
            "01111000011111",
            "01111000011111",
            "01111000011111",
            "01111111111111",
            "01111111111111",
            "01111111111111",
            "01111111111111",
            "00000000011111",
            "00000000011111",
            "00000000011111",
            "00000000000011",
            "00000000000011",
        ];
        for (row, &a) in DType::ALL.iter().enumerate() {
            for (column, &b) in DType::ALL.iter().enumerate() {
                assert_eq!(promote_types(a, b), promote[row][column], "{a} + {b}");
                let bit = |table: &[&str; 14]| table[row].as_bytes()[column] == b'1';
                assert_eq!(can_cast(a, b, Casting::Safe), bit(&safe), "safe {a} -> {b}");
                assert_eq!(
                    can_cast(a, b, Casting::SameKind),
                    bit(&same_kind),
                    "same_kind {a} -> {b}"
                );
            }
        }
    }

    #[test]
    fn weak_complex_keeps_a_float_tensors_precision() {
        // `(np.ones(1, 'f') + 1j).dtype` is complex64; ints and float64 give complex128.
        let cases = [
            (Float16, Complex64),
            (Float32, Complex64),
            (Float64, Complex128),
            (Int8, Complex128),
            (Bool, Complex128),
            (Complex64, Complex64),
        ];
        for (tensor, expected) in cases {
            assert_eq!(
                result_type(&[Operand::Tensor(tensor), Operand::PyComplex]),
                Ok(expected),
                "{tensor} + 1j"
            );
        }
        assert_eq!(
            result_type(&[Operand::Tensor(Complex64), Operand::PyFloat]),
            Ok(Complex64)
        );
        assert_eq!(result_type(&[Operand::PyComplex]), Ok(Complex128));
    }

    #[test]
    fn weak_scalars_next_to_float16_stay_float16() {
        // `(np.ones(1, 'e') + 1.5).dtype`, `+ 1`, `+ True`; int8 + 1.5 is float64.
        for scalar in [Operand::PyFloat, Operand::PyInt(70000), Operand::PyBool] {
            assert_eq!(
                result_type(&[Operand::Tensor(Float16), scalar]),
                Ok(Float16)
            );
        }
        assert_eq!(
            result_type(&[Operand::Tensor(UInt8), Operand::Tensor(Float16)]),
            Ok(Float16)
        );
        assert_eq!(
            result_type(&[Operand::Tensor(Int16), Operand::Tensor(Float16)]),
            Ok(Float32)
        );
    }

    #[test]
    fn weak_ints_take_unsigned_and_small_dtypes_and_must_fit() {
        assert_eq!(
            result_type(&[Operand::Tensor(UInt8), Operand::PyInt(200)]),
            Ok(UInt8)
        );
        assert_eq!(
            result_type(&[Operand::Tensor(Int8), Operand::PyFloat]),
            Ok(Float64)
        );
        let err = result_type(&[Operand::Tensor(UInt8), Operand::PyInt(-1)]).unwrap_err();
        assert_eq!(err.message, "Python integer -1 out of bounds for uint8");
        let err = result_type(&[Operand::Tensor(Int8), Operand::PyInt(128)]).unwrap_err();
        assert_eq!(err.message, "Python integer 128 out of bounds for int8");
    }
}
