//! NumPy's scalar semantics of each binary operation, as one table that both the
//! interpreter (`kernels::binary`) and the JIT's instruction selection
//! (`jit::scalar_ops`) read: what one element computes once the operands are in the
//! loop dtype ([`BinaryOp::loop_dtype`]). A rule such as "bool `+` is `or`" or
//! "`maximum` keeps a NaN, `fmax` drops it" is written here once; each back end only
//! implements the handful of primitives the table names.

use super::BinaryOp;
use crate::dtype::DType;

/// A comparison (its result is bool whatever the operands' dtype).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

/// A two-input logic function: of truth values ([`BinaryScalar::Logical`]) or of
/// bits ([`BinaryScalar::Bits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logic {
    And,
    Or,
    Xor,
}

/// What one element of a binary operation computes, in its loop dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryScalar {
    /// Compares the operands (bool operands compare as 0 < 1).
    Compare(Comparison),
    /// Combines the operands' truth values (non-zero, NaN included, is true).
    Logical(Logic),
    /// Combines the operands bit by bit (bool's `+`, `*`, `maximum`, ... are these).
    Bits(Logic),
    /// Wrapping for integers, IEEE for floats.
    Add,
    Subtract,
    Multiply,
    /// IEEE division (floats only: integer division promotes to float first).
    Divide,
    /// The larger (`max`) or smaller operand. For floats `nan_wins` says whether a
    /// NaN operand is the result (`maximum`) or the other operand is (`fmax`).
    Extremum {
        max: bool,
        nan_wins: bool,
    },
    /// A function with semantics of its own, the interpreter's (`scalar_semantics`)
    /// and the JIT's call of that same function: floor division, remainder and power
    /// with Python's signs and NumPy's integer rules, `arctan2`, `hypot`.
    Function(BinaryOp),
}

/// The semantics of `op` on operands of `loop_dtype`; `None` where NumPy has no
/// loop for that dtype.
pub fn binary_scalar(op: BinaryOp, loop_dtype: DType) -> Option<BinaryScalar> {
    use BinaryOp::*;
    use BinaryScalar as S;
    let comparison = match op {
        Equal => Some(Comparison::Equal),
        NotEqual => Some(Comparison::NotEqual),
        Less => Some(Comparison::Less),
        LessEqual => Some(Comparison::LessEqual),
        Greater => Some(Comparison::Greater),
        GreaterEqual => Some(Comparison::GreaterEqual),
        _ => None,
    };
    if let Some(comparison) = comparison {
        return Some(S::Compare(comparison));
    }
    match op {
        LogicalAnd => return Some(S::Logical(Logic::And)),
        LogicalOr => return Some(S::Logical(Logic::Or)),
        LogicalXor => return Some(S::Logical(Logic::Xor)),
        _ => {}
    }
    if loop_dtype == DType::Bool {
        // Bool arithmetic is logical: `+` and `maximum` are "or", `*` and `minimum`
        // "and".
        return match op {
            Add | Maximum | Fmax | BitwiseOr => Some(S::Bits(Logic::Or)),
            Multiply | Minimum | Fmin | BitwiseAnd => Some(S::Bits(Logic::And)),
            BitwiseXor => Some(S::Bits(Logic::Xor)),
            _ => None,
        };
    }
    // Floats and complex numbers (`Divide`, and no bitwise ops).
    let float = loop_dtype.is_inexact();
    Some(match op {
        Add => S::Add,
        Subtract => S::Subtract,
        Multiply => S::Multiply,
        Divide if float => S::Divide,
        Maximum => S::Extremum {
            max: true,
            nan_wins: true,
        },
        Minimum => S::Extremum {
            max: false,
            nan_wins: true,
        },
        Fmax => S::Extremum {
            max: true,
            nan_wins: false,
        },
        Fmin => S::Extremum {
            max: false,
            nan_wins: false,
        },
        BitwiseAnd if !float => S::Bits(Logic::And),
        BitwiseOr if !float => S::Bits(Logic::Or),
        BitwiseXor if !float => S::Bits(Logic::Xor),
        FloorDivide | Remainder | Power => S::Function(op),
        Arctan2 | Hypot if loop_dtype.is_float() => S::Function(op),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every op has semantics for every dtype its own dtype rules give it a loop in,
    /// and none where they do not: the table and the dtype rules agree.
    #[test]
    fn the_table_covers_exactly_the_loops_numpy_has() {
        for &op in BinaryOp::ALL {
            for dtype in DType::ALL {
                let Ok(loop_dtype) = op.loop_dtype(dtype) else {
                    continue;
                };
                assert!(
                    binary_scalar(op, loop_dtype).is_some(),
                    "{} in {loop_dtype} has a loop but no semantics",
                    op.name()
                );
            }
        }
        assert_eq!(binary_scalar(BinaryOp::Divide, DType::Int64), None);
        assert_eq!(binary_scalar(BinaryOp::Hypot, DType::Int64), None);
        assert_eq!(binary_scalar(BinaryOp::Subtract, DType::Bool), None);
    }

    #[test]
    fn numpy_rules_written_once() {
        assert_eq!(
            binary_scalar(BinaryOp::Add, DType::Bool),
            Some(BinaryScalar::Bits(Logic::Or))
        );
        assert_eq!(
            binary_scalar(BinaryOp::Fmin, DType::Bool),
            Some(BinaryScalar::Bits(Logic::And))
        );
        assert_eq!(
            binary_scalar(BinaryOp::Fmax, DType::Float32),
            Some(BinaryScalar::Extremum {
                max: true,
                nan_wins: false
            })
        );
        assert_eq!(
            binary_scalar(BinaryOp::Less, DType::Bool),
            Some(BinaryScalar::Compare(Comparison::Less))
        );
    }
}
