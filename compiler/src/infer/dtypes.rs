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
}

/// NumPy's kinds in promotion order; a dtype of a higher kind can hold every kind below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Bool,
    Int,
    Float,
}

impl Kind {
    fn of(dtype: DType) -> Kind {
        match dtype {
            DType::Bool => Kind::Bool,
            DType::Int32 | DType::Int64 => Kind::Int,
            DType::Float32 | DType::Float64 => Kind::Float,
        }
    }

    /// The dtype a Python scalar of this kind gets when nothing else decides.
    fn default_dtype(self) -> DType {
        match self {
            Kind::Bool => DType::Bool,
            Kind::Int => DType::Int64,
            Kind::Float => DType::Float64,
        }
    }
}

/// `np.promote_types(a, b)`: the smallest dtype that holds every value of both.
pub fn promote_types(a: DType, b: DType) -> DType {
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    // float32 has a 24-bit mantissa, so no integer type fits in it losslessly.
    if low.is_int() && high == DType::Float32 {
        DType::Float64
    } else {
        high
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
/// down a kind (int64 to float32 and int64 to int32 pass, float to int does not).
pub fn can_cast(from: DType, to: DType, casting: Casting) -> bool {
    match casting {
        Casting::No | Casting::Equiv => from == to,
        Casting::Safe => promote_types(from, to) == to,
        Casting::SameKind => Kind::of(from) <= Kind::of(to),
        Casting::Unsafe => true,
    }
}

/// `np.result_type` of the operands under NEP 50.
pub fn result_type(operands: &[Operand]) -> InferResult<DType> {
    let mut strong: Option<DType> = None;
    let mut weak_kind: Option<Kind> = None;
    for operand in operands {
        match *operand {
            Operand::Tensor(dtype) => {
                strong = Some(strong.map_or(dtype, |s| promote_types(s, dtype)));
            }
            Operand::PyBool => weak_kind = weak_kind.max(Some(Kind::Bool)),
            Operand::PyInt(_) => weak_kind = weak_kind.max(Some(Kind::Int)),
            Operand::PyFloat => weak_kind = weak_kind.max(Some(Kind::Float)),
        }
    }
    let result = match (strong, weak_kind) {
        (None, None) => {
            return Err(InferError::new("at least one array or dtype is required"));
        }
        (Some(dtype), None) => dtype,
        (None, Some(kind)) => kind.default_dtype(),
        (Some(dtype), Some(kind)) if Kind::of(dtype) >= kind => dtype,
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
    if dtype == DType::Int32 && i32::try_from(value).is_err() {
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
        for (row, &from) in DType::ALL.iter().enumerate() {
            for (column, &to) in DType::ALL.iter().enumerate() {
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
        for (row, a) in DType::ALL.iter().enumerate() {
            for (col, b) in DType::ALL.iter().enumerate() {
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
}
