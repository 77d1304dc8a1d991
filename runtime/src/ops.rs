//! The vocabulary of element-wise, reduction and scan operations shared by the
//! compiler (type inference, tiling) and the runtime (kernels), with NumPy's result
//! dtype for each input dtype. The tables were generated from NumPy 2.4 itself.

use crate::dtype::DType;

pub mod semantics;

/// Why an operation has no result dtype for an input dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DTypeRuleError {
    /// NumPy has no loop for it either (e.g. `-` on bool, `~` on floats).
    NoLoop,
    /// NumPy has the loop but marsc does not yet (the complex math functions
    /// beyond `sqrt`, `exp` and `log`); the name is NumPy's result dtype.
    UnsupportedResult(&'static str),
}

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $text:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($variant),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// NumPy's name for the operation.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }

            pub fn from_name(name: &str) -> Option<$name> {
                match name { $($text => Some($name::$variant),)* _ => None }
            }
        }
    };
}

named_enum!(
    /// Element-wise functions of one tensor.
    UnaryOp {
        Negative => "negative", Positive => "positive", Absolute => "absolute",
        Sqrt => "sqrt", Square => "square", Exp => "exp", Expm1 => "expm1", Log => "log",
        Log1p => "log1p", Log2 => "log2", Log10 => "log10", Sin => "sin", Cos => "cos",
        Tan => "tan", Arcsin => "arcsin", Arccos => "arccos", Arctan => "arctan",
        Sinh => "sinh", Cosh => "cosh", Tanh => "tanh", Floor => "floor", Ceil => "ceil",
        Trunc => "trunc", Rint => "rint", Sign => "sign", Reciprocal => "reciprocal",
        IsNan => "isnan", IsInf => "isinf", IsFinite => "isfinite",
        LogicalNot => "logical_not", Invert => "invert",
        Real => "real", Imag => "imag", Conjugate => "conjugate", Angle => "angle",
    }
);

named_enum!(
    /// Element-wise functions of two broadcast tensors.
    BinaryOp {
        Add => "add", Subtract => "subtract", Multiply => "multiply", Divide => "divide",
        FloorDivide => "floor_divide", Remainder => "remainder", Power => "power",
        Maximum => "maximum", Minimum => "minimum", Fmax => "fmax", Fmin => "fmin",
        Arctan2 => "arctan2", Hypot => "hypot", Equal => "equal", NotEqual => "not_equal",
        Less => "less", LessEqual => "less_equal", Greater => "greater",
        GreaterEqual => "greater_equal", LogicalAnd => "logical_and",
        LogicalOr => "logical_or", LogicalXor => "logical_xor",
        BitwiseAnd => "bitwise_and", BitwiseOr => "bitwise_or", BitwiseXor => "bitwise_xor",
    }
);

named_enum!(
    /// Reductions over a set of axes. `Var`/`Std` carry `ddof` separately (see
    /// [`Reduction`]); `ArgMax`/`ArgMin` return the index into the reduced axes
    /// raveled in C order (the flat index when every axis is reduced). The `Nan*`
    /// ops skip NaNs as NumPy's `nanmax` (`fmax.reduce`: an all-NaN slice gives NaN)
    /// and `nanargmax` (NaN read as the worst value; an all-NaN slice is an error).
    /// The checks (`WeightsCheck`, `ChoiceCheck`, ...) are `all`s that fail at their
    /// root where they are false, with the error NumPy raises there
    /// ([`ReduceOp::check_failure`]).
    ReduceOp {
        Sum => "sum", Prod => "prod", Mean => "mean", Max => "max", Min => "min",
        Var => "var", Std => "std", ArgMax => "argmax", ArgMin => "argmin",
        All => "all", Any => "any", CountNonzero => "count_nonzero",
        NanMax => "nanmax", NanMin => "nanmin", NanArgMax => "nanargmax",
        NanArgMin => "nanargmin",
        WeightsCheck => "weights_check", ChoiceCheck => "choice_check",
        FweightsIntegerCheck => "fweights_integer_check",
        FweightsSignCheck => "fweights_sign_check",
        AweightsSignCheck => "aweights_sign_check",
    }
);

named_enum!(
    /// Inclusive scans along one axis.
    ScanOp { CumSum => "cumsum", CumProd => "cumprod" }
);

/// A reduction with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reduction {
    pub op: ReduceOp,
    /// Delta degrees of freedom for `Var`/`Std` (0 otherwise).
    pub ddof: f64,
}

/// The float dtype NumPy's math functions (`sqrt`, `exp`, `arctan2`, ...) compute an
/// input in: the smallest float that holds it exactly (float16 for bool and 8-bit
/// ints, float32 for 16-bit ints).
fn float_math(input: DType) -> Result<DType, DTypeRuleError> {
    Ok(match input {
        DType::Bool | DType::Int8 | DType::UInt8 | DType::Float16 => DType::Float16,
        DType::Int16 | DType::UInt16 | DType::Float32 => DType::Float32,
        DType::Int32 | DType::Int64 | DType::UInt32 | DType::UInt64 | DType::Float64 => {
            DType::Float64
        }
        DType::Complex64 | DType::Complex128 => input,
    })
}

/// The dtype `/`, `mean`, `var` and `std` give: float16 and float32 keep theirs,
/// everything else is float64.
fn divide_dtype(input: DType) -> DType {
    match input {
        DType::Float16 | DType::Float32 | DType::Complex64 | DType::Complex128 => input,
        _ => DType::Float64,
    }
}

fn same_no_bool(
    input: DType,
    bool_result: Result<DType, DTypeRuleError>,
) -> Result<DType, DTypeRuleError> {
    if input == DType::Bool {
        bool_result
    } else {
        Ok(input)
    }
}

/// What `sum`, `prod`, `cumsum` and `cumprod` give: floats keep their dtype, bool and
/// signed ints widen to int64, unsigned ints to uint64.
fn sum_dtype(input: DType) -> DType {
    if input.is_inexact() {
        input
    } else if input.is_unsigned() {
        DType::UInt64
    } else {
        DType::Int64
    }
}

impl UnaryOp {
    /// NumPy's result dtype for an input of `input` dtype. The kernel computes in the
    /// result dtype (inputs are cast to it first), except for the predicates
    /// (`isnan`, `isinf`, `isfinite`, `logical_not`) which read the input as is.
    pub fn result_dtype(self, input: DType) -> Result<DType, DTypeRuleError> {
        use UnaryOp::*;
        if input.is_complex() {
            return self.complex_result_dtype(input);
        }
        match self {
            Real | Imag => Ok(input),
            // NumPy's loop for bool is int8's.
            Conjugate => same_no_bool(input, Ok(DType::Int8)),
            // `np.angle(x)` is `arctan2(0, x)`, where a bool meets the weak 0 as int64.
            Angle if input == DType::Bool => Ok(DType::Float64),
            Angle => float_math(input),
            Negative | Positive | Sign => same_no_bool(input, Err(DTypeRuleError::NoLoop)),
            Absolute | Floor | Ceil | Trunc => Ok(input),
            // NumPy's smallest loop for bool is int8's.
            Square | Reciprocal => same_no_bool(input, Ok(DType::Int8)),
            Sqrt | Exp | Expm1 | Log | Log1p | Log2 | Log10 | Sin | Cos | Tan | Arcsin | Arccos
            | Arctan | Sinh | Cosh | Tanh | Rint => float_math(input),
            IsNan | IsInf | IsFinite | LogicalNot => Ok(DType::Bool),
            Invert => {
                if input.is_inexact() {
                    Err(DTypeRuleError::NoLoop)
                } else {
                    Ok(input)
                }
            }
        }
    }
}

impl UnaryOp {
    /// The result dtype for a complex input: the parts' float for `abs`, `real`,
    /// `imag` and `angle`; no loop for the rounding functions and `~`; the math
    /// functions marsc has no complex kernel for yet say so.
    fn complex_result_dtype(self, input: DType) -> Result<DType, DTypeRuleError> {
        use UnaryOp::*;
        match self {
            Absolute | Real | Imag | Angle => Ok(input.real_part()),
            Negative | Positive | Sqrt | Square | Exp | Log | Rint | Reciprocal | Conjugate => {
                Ok(input)
            }
            IsNan | IsInf | IsFinite | LogicalNot => Ok(DType::Bool),
            Floor | Ceil | Trunc | Invert => Err(DTypeRuleError::NoLoop),
            Expm1 | Log1p | Log2 | Log10 | Sin | Cos | Tan | Arcsin | Arccos | Arctan | Sinh
            | Cosh | Tanh | Sign => Err(DTypeRuleError::UnsupportedResult(input.name())),
        }
    }
}

impl BinaryOp {
    /// NumPy's result dtype when both operands have (after promotion) dtype `common`.
    pub fn result_dtype(self, common: DType) -> Result<DType, DTypeRuleError> {
        use BinaryOp::*;
        match self {
            Add | Multiply | Maximum | Minimum | Fmax | Fmin => Ok(common),
            Subtract => same_no_bool(common, Err(DTypeRuleError::NoLoop)),
            Divide => Ok(divide_dtype(common)),
            FloorDivide | Remainder if common.is_complex() => Err(DTypeRuleError::NoLoop),
            Arctan2 | Hypot if common.is_complex() => Err(DTypeRuleError::NoLoop),
            FloorDivide | Remainder | Power => same_no_bool(common, Ok(DType::Int8)),
            Arctan2 | Hypot => float_math(common),
            Equal | NotEqual | Less | LessEqual | Greater | GreaterEqual | LogicalAnd
            | LogicalOr | LogicalXor => Ok(DType::Bool),
            BitwiseAnd | BitwiseOr | BitwiseXor => {
                if common.is_inexact() {
                    Err(DTypeRuleError::NoLoop)
                } else {
                    Ok(common)
                }
            }
        }
    }

    /// The dtype the kernel computes in: the result dtype, except for comparisons and
    /// logical ops, which compare in the common input dtype.
    pub fn loop_dtype(self, common: DType) -> Result<DType, DTypeRuleError> {
        let out = self.result_dtype(common)?;
        Ok(if out == DType::Bool { common } else { out })
    }
}

impl ReduceOp {
    pub fn result_dtype(self, input: DType) -> DType {
        use ReduceOp::*;
        match self {
            Sum | Prod => sum_dtype(input),
            Var | Std if input.is_complex() => input.real_part(),
            Mean | Var | Std => divide_dtype(input),
            Max | Min | NanMax | NanMin => input,
            ArgMax | ArgMin | NanArgMax | NanArgMin | CountNonzero => DType::Int64,
            All | Any => DType::Bool,
            WeightsCheck | ChoiceCheck | FweightsIntegerCheck | FweightsSignCheck
            | AweightsSignCheck => DType::Bool,
        }
    }

    /// For a check, NumPy's error where it finds a false element: `average`'s
    /// weights summing to zero, `choose`'s index out of range, `cov`'s `fweights`
    /// that are not whole numbers or negative, its negative `aweights`.
    pub fn check_failure(self) -> Option<&'static str> {
        Some(match self {
            ReduceOp::WeightsCheck => "Weights sum to zero, can't be normalized",
            ReduceOp::ChoiceCheck => "invalid entry in choice array",
            ReduceOp::FweightsIntegerCheck => "fweights must be integer",
            ReduceOp::FweightsSignCheck => "fweights cannot be negative",
            ReduceOp::AweightsSignCheck => "aweights cannot be negative",
            _ => return None,
        })
    }
}

impl ScanOp {
    pub fn result_dtype(self, input: DType) -> DType {
        sum_dtype(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for op in UnaryOp::ALL {
            assert_eq!(UnaryOp::from_name(op.name()), Some(*op));
        }
        for op in BinaryOp::ALL {
            assert_eq!(BinaryOp::from_name(op.name()), Some(*op));
        }
    }

    #[test]
    fn numpy_dtype_rules() {
        assert_eq!(UnaryOp::Sqrt.result_dtype(DType::Int32), Ok(DType::Float64));
        assert_eq!(
            UnaryOp::Negative.result_dtype(DType::Bool),
            Err(DTypeRuleError::NoLoop)
        );
        assert_eq!(
            BinaryOp::Divide.result_dtype(DType::Int64),
            Ok(DType::Float64)
        );
        assert_eq!(BinaryOp::Less.loop_dtype(DType::Int32), Ok(DType::Int32));
        assert_eq!(ReduceOp::Sum.result_dtype(DType::Int32), DType::Int64);
        assert_eq!(ReduceOp::Mean.result_dtype(DType::Float32), DType::Float32);
    }

    /// NumPy's result dtype per input dtype (in `DType::ALL`'s order; `None`: no loop).
    type Row = [Option<&'static str>; 14];

    /// An op's result dtype by its name.
    type Rule = dyn Fn(&str, DType) -> Result<DType, DTypeRuleError>;

    #[rustfmt::skip]
    const UNARY: &[(&str, Row)] = &[
        ("negative", [None, Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("positive", [None, Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("absolute", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("float32"), Some("float64")]),
        ("sqrt", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("square", [Some("int8"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("exp", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("log", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("sin", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("arctan", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("floor", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("ceil", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("trunc", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("rint", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("sign", [None, Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("reciprocal", [Some("int8"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("invert", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), None, None, None, None, None]),
        ("isnan", [Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool")]),
        ("real", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("float32"), Some("float64")]),
        ("imag", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("float32"), Some("float64")]),
        ("conjugate", [Some("int8"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("angle", [Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float32"), Some("float64")]),
        ("logical_not", [Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool")]),
    ];

    #[rustfmt::skip]
    const BINARY: &[(&str, Row)] = &[
        ("add", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("subtract", [None, Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("multiply", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("divide", [Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("floor_divide", [Some("int8"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("remainder", [Some("int8"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("power", [Some("int8"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("maximum", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("fmax", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("arctan2", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("hypot", [Some("float16"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), None, None]),
        ("equal", [Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool")]),
        ("less", [Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool")]),
        ("logical_and", [Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool"), Some("bool")]),
        ("bitwise_and", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), None, None, None, None, None]),
        ("bitwise_xor", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), None, None, None, None, None]),
    ];

    #[rustfmt::skip]
    const REDUCE: &[(&str, Row)] = &[
        ("sum", [Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("uint64"), Some("uint64"), Some("uint64"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("prod", [Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("uint64"), Some("uint64"), Some("uint64"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("mean", [Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("var", [Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float64"), Some("float16"), Some("float32"), Some("float64"), Some("float32"), Some("float64")]),
        ("max", [Some("bool"), Some("int8"), Some("int16"), Some("int32"), Some("int64"), Some("uint8"), Some("uint16"), Some("uint32"), Some("uint64"), Some("float16"), Some("float32"), Some("float64"), Some("complex64"), Some("complex128")]),
        ("argmax", [Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64"), Some("int64")]),
    ];

    /// NumPy 2.4's result dtype of each op for each input dtype, generated with
    /// `np.<op>(np.ones(1, t)[, np.ones(1, t)]).dtype` (`np.<op>(np.ones(1, t))` for
    /// reductions; `real`, `imag` and `angle` are NumPy functions, not ufuncs).
    #[test]
    fn result_dtypes_match_numpy_for_every_dtype() {
        let name = |got: Result<DType, DTypeRuleError>| match got {
            Ok(dtype) => Some(dtype.name()),
            Err(DTypeRuleError::UnsupportedResult(name)) => Some(name),
            Err(DTypeRuleError::NoLoop) => None,
        };
        let rules: [(&[(&str, Row)], &Rule); 3] = [
            (UNARY, &|op, d| {
                UnaryOp::from_name(op).unwrap().result_dtype(d)
            }),
            (BINARY, &|op, d| {
                BinaryOp::from_name(op).unwrap().result_dtype(d)
            }),
            (REDUCE, &|op, d| {
                Ok(ReduceOp::from_name(op).unwrap().result_dtype(d))
            }),
        ];
        for (table, rule) in rules {
            for (op, row) in table {
                for (dtype, expected) in DType::ALL.into_iter().zip(row) {
                    assert_eq!(name(rule(op, dtype)), *expected, "{op} of {dtype}");
                }
            }
        }
    }
}
