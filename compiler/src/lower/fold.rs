//! Constant folding of Python values with Python's semantics: `n // 2` floors,
//! `-7 % 2` is 1, `2 ** -1` is 0.5, `True + 1` is 2, `x.shape + (1,)` concatenates,
//! comparisons and truthiness. Python ints are unbounded; marsc keeps them in i64
//! and reports a result outside that range instead of wrapping.

use super::value::Value;
use marsc_grammar::ast::{BinOp, CmpOp, UnaryOp};
use marsc_grammar::{Diagnostic, Span};
use std::cmp::Ordering;
use std::rc::Rc;

/// A folded value, or why Python would not give one.
pub(crate) type FoldResult = Result<Value, FoldError>;

/// Why a fold failed: the exception Python raises there (or what marsc does not
/// support yet) and the message, which becomes the diagnostic at the operator.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FoldError {
    pub(crate) raises: Raises,
    pub(crate) message: String,
}

/// The Python exception behind a [`FoldError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Raises {
    TypeError,
    ZeroDivisionError,
    OverflowError,
    /// Python would compute it; marsc's compile-time values cannot (the message
    /// starts with "not supported yet").
    NotSupported,
}

impl FoldError {
    fn new(raises: Raises, message: impl Into<String>) -> Self {
        FoldError {
            raises,
            message: message.into(),
        }
    }

    fn type_error(message: impl Into<String>) -> Self {
        Self::new(Raises::TypeError, message)
    }

    fn zero_division(message: &str) -> Self {
        Self::new(Raises::ZeroDivisionError, message)
    }

    fn int_range() -> Self {
        Self::new(
            Raises::NotSupported,
            "not supported yet: integers outside the int64 range",
        )
    }
}

impl FoldError {
    /// The diagnostic at the operator (or call) that failed; the caret's label names
    /// the exception Python raises there.
    pub(crate) fn at(self, span: Span) -> Diagnostic {
        let raises = match self.raises {
            Raises::TypeError => "TypeError",
            Raises::ZeroDivisionError => "ZeroDivisionError",
            Raises::OverflowError => "OverflowError",
            Raises::NotSupported => return Diagnostic::error(self.message, span),
        };
        Diagnostic::error(self.message, span).with_label(format!("Python raises {raises} here"))
    }
}

impl std::fmt::Display for FoldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A Python number: what `bool`, `int` and `float` operands become for arithmetic.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Number {
    Int(i64),
    Float(f64),
}

fn number(value: &Value) -> Option<Number> {
    match value {
        Value::Int(v) => Some(Number::Int(*v)),
        Value::Bool(b) => Some(Number::Int(*b as i64)),
        Value::Float(v) => Some(Number::Float(*v)),
        _ => None,
    }
}

fn as_float(n: Number) -> f64 {
    match n {
        Number::Int(v) => v as f64,
        Number::Float(v) => v,
    }
}

fn unsupported_operands(op: &str, a: &Value, b: &Value) -> FoldError {
    FoldError::type_error(format!(
        "unsupported operand types for `{op}`: {} and {}",
        a.type_name(),
        b.type_name()
    ))
}

/// A Python number as a complex (`(re, im)`), when one of two operands is complex.
fn complex_parts(value: &Value) -> Option<(f64, f64)> {
    match value {
        Value::Complex(re, im) => Some((*re, *im)),
        other => number(other).map(|n| (as_float(n), 0.0)),
    }
}

/// Python's complex arithmetic (CPython's `_Py_c_*`): a real operand is converted
/// to `complex(x, 0.0)` first (Python 3.11).
fn fold_complex(op: BinOp, a: (f64, f64), b: (f64, f64), values: (&Value, &Value)) -> FoldResult {
    let ((ar, ai), (br, bi)) = (a, b);
    let (re, im) = match op {
        BinOp::Add => (ar + br, ai + bi),
        BinOp::Sub => (ar - br, ai - bi),
        BinOp::Mul => (ar * br - ai * bi, ar * bi + ai * br),
        BinOp::Div => complex_quotient(a, b)
            .ok_or_else(|| FoldError::zero_division("complex division by zero"))?,
        BinOp::Pow => complex_pow(a, b)?,
        _ => return Err(unsupported_operands(op.symbol(), values.0, values.1)),
    };
    Ok(Value::Complex(re, im))
}

/// CPython's `_Py_c_quot`; `None` for a zero divisor.
fn complex_quotient((ar, ai): (f64, f64), (br, bi): (f64, f64)) -> Option<(f64, f64)> {
    let (abs_br, abs_bi) = (br.abs(), bi.abs());
    if abs_br >= abs_bi {
        if abs_br == 0.0 {
            return None;
        }
        let ratio = bi / br;
        let denom = br + bi * ratio;
        Some(((ar + ai * ratio) / denom, (ai - ar * ratio) / denom))
    } else if abs_bi >= abs_br {
        let ratio = br / bi;
        let denom = br * ratio + bi;
        Some(((ar * ratio + ai) / denom, (ai * ratio - ar) / denom))
    } else {
        Some((f64::NAN, f64::NAN))
    }
}

fn complex_product((ar, ai): (f64, f64), (br, bi): (f64, f64)) -> (f64, f64) {
    (ar * br - ai * bi, ar * bi + ai * br)
}

/// CPython's `complex.__pow__`: integer exponents up to 100 in magnitude by repeated
/// squaring, others through polar form.
fn complex_pow(a: (f64, f64), b: (f64, f64)) -> Result<(f64, f64), FoldError> {
    let (br, bi) = b;
    if bi == 0.0 && br == br.trunc() && br.abs() <= 100.0 {
        let n = br as i64;
        let mut power = (1.0, 0.0);
        let mut base = a;
        let mut mask = 1u64;
        let magnitude = n.unsigned_abs();
        while mask > 0 && magnitude >= mask {
            if magnitude & mask != 0 {
                power = complex_product(power, base);
            }
            mask <<= 1;
            base = complex_product(base, base);
        }
        if n < 0 {
            return complex_quotient((1.0, 0.0), power)
                .ok_or_else(|| FoldError::zero_division("0.0 to a negative or complex power"));
        }
        return Ok(power);
    }
    let (ar, ai) = a;
    if br == 0.0 && bi == 0.0 {
        return Ok((1.0, 0.0));
    }
    if ar == 0.0 && ai == 0.0 {
        if bi != 0.0 || br < 0.0 {
            return Err(FoldError::zero_division(
                "0.0 to a negative or complex power",
            ));
        }
        return Ok((0.0, 0.0));
    }
    let magnitude = ar.hypot(ai);
    let mut length = magnitude.powf(br);
    let angle = ai.atan2(ar);
    let mut phase = angle * br;
    if bi != 0.0 {
        length /= (angle * bi).exp();
        phase += bi * magnitude.ln();
    }
    Ok((length * phase.cos(), length * phase.sin()))
}

/// `a OP b` for two non-tensor values.
pub(crate) fn fold_binary(op: BinOp, a: &Value, b: &Value) -> FoldResult {
    if matches!(a, Value::Complex(..)) || matches!(b, Value::Complex(..)) {
        if let (Some(x), Some(y)) = (complex_parts(a), complex_parts(b)) {
            return fold_complex(op, x, y, (a, b));
        }
    }
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return match op {
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => fold_bitwise(op, a, b),
            BinOp::MatMul => Err(unsupported_operands("@", a, b)),
            _ => fold_arithmetic(op, x, y),
        };
    }
    fold_sequence(op, a, b).unwrap_or_else(|| Err(unsupported_operands(op.symbol(), a, b)))
}

fn fold_bitwise(op: BinOp, a: &Value, b: &Value) -> FoldResult {
    let as_int = |v: &Value| match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        _ => None,
    };
    let (Some(x), Some(y)) = (as_int(a), as_int(b)) else {
        return Err(unsupported_operands(op.symbol(), a, b));
    };
    let result = match op {
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        _ => x ^ y,
    };
    Ok(match (a, b) {
        (Value::Bool(_), Value::Bool(_)) => Value::Bool(result != 0),
        _ => Value::Int(result),
    })
}

fn fold_arithmetic(op: BinOp, x: Number, y: Number) -> FoldResult {
    if let (Number::Int(a), Number::Int(b)) = (x, y) {
        return fold_int(op, a, b);
    }
    let (a, b) = (as_float(x), as_float(y));
    Ok(Value::Float(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => {
            if b == 0.0 {
                return Err(FoldError::zero_division("float division by zero"));
            }
            a / b
        }
        BinOp::FloorDiv => {
            if b == 0.0 {
                return Err(FoldError::zero_division("float floor division by zero"));
            }
            float_div_mod(a, b).0
        }
        BinOp::Mod => {
            if b == 0.0 {
                return Err(FoldError::zero_division("float modulo by zero"));
            }
            float_div_mod(a, b).1
        }
        BinOp::Pow => float_pow(a, b)?,
        BinOp::MatMul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
            unreachable!("handled by fold_binary")
        }
    }))
}

fn fold_int(op: BinOp, a: i64, b: i64) -> FoldResult {
    let checked = |v: Option<i64>| v.map(Value::Int).ok_or_else(FoldError::int_range);
    match op {
        BinOp::Add => checked(a.checked_add(b)),
        BinOp::Sub => checked(a.checked_sub(b)),
        BinOp::Mul => checked(a.checked_mul(b)),
        BinOp::Div => {
            if b == 0 {
                Err(FoldError::zero_division("division by zero"))
            } else {
                Ok(Value::Float(a as f64 / b as f64))
            }
        }
        BinOp::FloorDiv | BinOp::Mod if b == 0 => Err(FoldError::zero_division(
            "integer division or modulo by zero",
        )),
        BinOp::FloorDiv => checked(a.checked_div(b).map(|q| {
            // Rust truncates toward zero; Python floors.
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        })),
        BinOp::Mod => {
            let r = a.wrapping_rem(b);
            Ok(Value::Int(if r != 0 && (r < 0) != (b < 0) {
                r + b
            } else {
                r
            }))
        }
        BinOp::Pow => {
            if b >= 0 {
                let exponent = u32::try_from(b).map_err(|_| FoldError::int_range())?;
                checked(a.checked_pow(exponent))
            } else if a == 0 {
                Err(FoldError::zero_division(
                    "0.0 cannot be raised to a negative power",
                ))
            } else {
                float_pow(a as f64, b as f64).map(Value::Float)
            }
        }
        BinOp::MatMul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
            unreachable!("handled by fold_binary")
        }
    }
}

/// Python's `divmod` for floats (CPython's `_float_div_mod`).
fn float_div_mod(a: f64, b: f64) -> (f64, f64) {
    let mut modulo = a % b;
    let mut div = (a - modulo) / b;
    if modulo != 0.0 {
        if (b < 0.0) != (modulo < 0.0) {
            modulo += b;
            div -= 1.0;
        }
    } else {
        modulo = 0.0f64.copysign(b);
    }
    let floor_div = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0f64.copysign(a / b)
    };
    (floor_div, modulo)
}

fn float_pow(a: f64, b: f64) -> Result<f64, FoldError> {
    if a == 0.0 && b < 0.0 {
        return Err(FoldError::zero_division(
            "0.0 cannot be raised to a negative power",
        ));
    }
    if a < 0.0 && b.fract() != 0.0 && b.is_finite() {
        return Err(FoldError::new(
            Raises::NotSupported,
            "not supported yet: complex numbers (a negative number to a fractional power)",
        ));
    }
    let power = a.powf(b);
    // CPython raises OverflowError when finite operands overflow (but not for `*`).
    if power.is_infinite() && a.is_finite() && b.is_finite() {
        return Err(FoldError::new(
            Raises::OverflowError,
            "(34, 'Numerical result out of range'): the power overflows a float",
        ));
    }
    Ok(power)
}

/// `+` and `*` on strings, tuples and lists.
fn fold_sequence(op: BinOp, a: &Value, b: &Value) -> Option<FoldResult> {
    match (op, a, b) {
        (BinOp::Add, Value::Str(x), Value::Str(y)) => Some(Ok(Value::str(&format!("{x}{y}")))),
        // A named tuple's `+` and `*` are plain tuples, as in Python.
        (BinOp::Add, Value::Tuple(x, _), Value::Tuple(y, _)) => Some(Ok(Value::Tuple(
            x.iter().chain(y.iter()).cloned().collect(),
            None,
        ))),
        (BinOp::Add, Value::List(x), Value::List(y)) => {
            Some(Ok(Value::List(x.iter().chain(y.iter()).cloned().collect())))
        }
        (BinOp::Mul, seq, Value::Int(n)) | (BinOp::Mul, Value::Int(n), seq) => {
            let times = usize::try_from(*n).unwrap_or(0);
            let length = match seq {
                Value::Str(text) => text.len(),
                Value::Tuple(items, _) | Value::List(items) => items.len(),
                _ => return None,
            };
            if length.saturating_mul(times) > MAX_SEQUENCE {
                return Some(Err(FoldError::new(
                    Raises::NotSupported,
                    format!("not supported yet: sequences longer than {MAX_SEQUENCE} items"),
                )));
            }
            match seq {
                Value::Str(text) => Some(Ok(Value::str(&text.repeat(times)))),
                Value::Tuple(items, _) => Some(Ok(Value::Tuple(repeat(items, times), None))),
                Value::List(items) => Some(Ok(Value::List(repeat(items, times)))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Compile-time sequences are shapes and small literals; a bound keeps `(0,) * 10**12`
/// from exhausting memory.
const MAX_SEQUENCE: usize = 1 << 20;

fn repeat(items: &[Value], times: usize) -> Rc<[Value]> {
    let mut out = Vec::with_capacity(items.len() * times);
    for _ in 0..times {
        out.extend_from_slice(items);
    }
    Rc::from(out)
}

/// `-x`, `+x`, `~x` on a Python value.
pub(crate) fn fold_unary(op: UnaryOp, value: &Value) -> FoldResult {
    let bad = || {
        FoldError::type_error(format!(
            "bad operand type for unary `{}`: {}",
            op.symbol(),
            value.type_name()
        ))
    };
    match (op, number(value)) {
        (UnaryOp::Neg, Some(Number::Int(v))) => v
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(FoldError::int_range),
        (UnaryOp::Neg, Some(Number::Float(v))) => Ok(Value::Float(-v)),
        (UnaryOp::Pos, Some(Number::Int(v))) => Ok(Value::Int(v)),
        (UnaryOp::Pos, Some(Number::Float(v))) => Ok(Value::Float(v)),
        (UnaryOp::Invert, Some(Number::Int(v))) => Ok(Value::Int(!v)),
        _ => match (op, value) {
            (UnaryOp::Neg, Value::Complex(re, im)) => Ok(Value::Complex(-re, -im)),
            (UnaryOp::Pos, Value::Complex(re, im)) => Ok(Value::Complex(*re, *im)),
            _ => Err(bad()),
        },
    }
}

/// `a OP b` for two non-tensor values.
pub(crate) fn fold_compare(op: CmpOp, a: &Value, b: &Value) -> FoldResult {
    let result = match op {
        CmpOp::Eq => python_eq(a, b),
        CmpOp::Ne => !python_eq(a, b),
        CmpOp::In | CmpOp::NotIn => python_contains(b, a)? == (op == CmpOp::In),
        CmpOp::Is | CmpOp::IsNot => python_is(a, b)? == (op == CmpOp::Is),
        _ => {
            let Some(ordering) = python_order(a, b)? else {
                // NaN compares false with everything.
                return Ok(Value::Bool(false));
            };
            match op {
                CmpOp::Lt => ordering == Ordering::Less,
                CmpOp::Le => ordering != Ordering::Greater,
                CmpOp::Gt => ordering == Ordering::Greater,
                _ => ordering != Ordering::Less,
            }
        }
    };
    Ok(Value::Bool(result))
}

/// `item in container` for a container whose items are known.
fn python_contains(container: &Value, item: &Value) -> Result<bool, FoldError> {
    match container {
        Value::Tuple(items, _) | Value::List(items) => Ok(items.iter().any(|x| python_eq(x, item))),
        Value::Str(text) => match item {
            Value::Str(part) => Ok(text.contains(part.as_ref())),
            other => Err(FoldError::type_error(format!(
                "`in <str>` requires a str as its left operand, not {}",
                other.a_type_name()
            ))),
        },
        Value::Range(range) => Ok(match *item {
            Value::Int(v) => range.contains(v),
            Value::Bool(b) => range.contains(i64::from(b)),
            Value::Float(v) => {
                v.fract() == 0.0 && v.abs() < 2f64.powi(63) && range.contains(v as i64)
            }
            _ => false,
        }),
        other => Err(FoldError::type_error(format!(
            "{} is not a container: `in` needs a tuple, list, str or range",
            other.a_type_name()
        ))),
    }
}

/// `a is b` where Python's answer does not depend on how objects are stored:
/// against `None`, `True`, `False`, `...` and types.
fn python_is(a: &Value, b: &Value) -> Result<bool, FoldError> {
    let singleton = |v: &Value| {
        matches!(
            v,
            Value::None
                | Value::Bool(_)
                | Value::Ellipsis
                | Value::PyType(_)
                | Value::ScalarType(_)
        )
    };
    if singleton(a) || singleton(b) {
        return Ok(match (a, b) {
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::PyType(x), Value::PyType(y)) => x == y,
            (Value::ScalarType(x), Value::ScalarType(y)) => x == y,
            (Value::None, Value::None) | (Value::Ellipsis, Value::Ellipsis) => true,
            _ => false,
        });
    }
    Err(FoldError::new(
        Raises::NotSupported,
        format!(
            "not supported yet: `is` between {} and {}; compare with `==`",
            a.a_type_name(),
            b.a_type_name()
        ),
    ))
}

/// Python's `==`, extended as NumPy does so that a dtype equals its names and types
/// (`x.dtype == 'float64'`, `x.dtype == float`).
pub(crate) fn python_eq(a: &Value, b: &Value) -> bool {
    if matches!(a, Value::Complex(..)) || matches!(b, Value::Complex(..)) {
        return match (complex_parts(a), complex_parts(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        };
    }
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return match (x, y) {
            (Number::Int(i), Number::Int(j)) => i == j,
            _ => as_float(x) == as_float(y),
        };
    }
    match (a, b) {
        (Value::DType(d), other) | (other, Value::DType(d)) => other.as_dtype() == Some(*d),
        (Value::Tuple(x, _), Value::Tuple(y, _)) | (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| python_eq(p, q))
        }
        _ => a == b,
    }
}

/// Python's ordering of two values: `Ok(None)` when unordered (NaN), an error when
/// Python would raise `TypeError`.
fn python_order(a: &Value, b: &Value) -> Result<Option<Ordering>, FoldError> {
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return Ok(match (x, y) {
            (Number::Int(i), Number::Int(j)) => Some(i.cmp(&j)),
            _ => as_float(x).partial_cmp(&as_float(y)),
        });
    }
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(Some(x.cmp(y))),
        (Value::Tuple(x, _), Value::Tuple(y, _)) | (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                if !python_eq(p, q) {
                    return python_order(p, q);
                }
            }
            Ok(Some(x.len().cmp(&y.len())))
        }
        _ => Err(FoldError::type_error(format!(
            "`<`, `<=`, `>`, `>=` are not supported between {} and {}",
            a.type_name(),
            b.type_name()
        ))),
    }
}

/// Python's truth value; `None` for values whose truth is not a compile-time fact
/// (tensors).
pub(crate) fn truthy(value: &Value) -> Option<bool> {
    Some(match value {
        Value::Tensor(_) | Value::Poison => return None,
        Value::Int(v) => *v != 0,
        Value::Float(v) => *v != 0.0,
        Value::Complex(re, im) => *re != 0.0 || *im != 0.0,
        Value::Bool(b) => *b,
        Value::Str(text) => !text.is_empty(),
        Value::None => false,
        Value::Tuple(items, _) | Value::List(items) => !items.is_empty(),
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> Value {
        Value::Int(v)
    }

    fn float(v: f64) -> Value {
        Value::Float(v)
    }

    #[test]
    fn arithmetic_matches_python() {
        // Expected values from CPython.
        let cases = [
            (BinOp::FloorDiv, int(7), int(-2), int(-4)),
            (BinOp::FloorDiv, int(-7), int(2), int(-4)),
            (BinOp::FloorDiv, int(7), int(2), int(3)),
            (BinOp::Mod, int(7), int(-2), int(-1)),
            (BinOp::Mod, int(-7), int(2), int(1)),
            (BinOp::FloorDiv, float(7.5), int(-2), float(-4.0)),
            (BinOp::Mod, float(-7.5), int(2), float(0.5)),
            (BinOp::Pow, int(2), int(-1), float(0.5)),
            (BinOp::Pow, int(2), int(10), int(1024)),
            (BinOp::Div, int(1), int(2), float(0.5)),
            (BinOp::Add, Value::Bool(true), int(1), int(2)),
            (
                BinOp::BitAnd,
                Value::Bool(true),
                Value::Bool(false),
                Value::Bool(false),
            ),
            (BinOp::BitXor, int(6), Value::Bool(true), int(7)),
            (BinOp::Mul, int(3), float(0.5), float(1.5)),
        ];
        for (op, a, b, expected) in cases {
            assert_eq!(fold_binary(op, &a, &b), Ok(expected), "{a:?} {op:?} {b:?}");
        }
        let negative_zero = fold_binary(BinOp::FloorDiv, &float(-0.0), &float(5.0)).unwrap();
        assert!(matches!(negative_zero, Value::Float(v) if v == 0.0 && v.is_sign_negative()));
    }

    #[test]
    fn arithmetic_errors() {
        assert_eq!(
            fold_binary(BinOp::FloorDiv, &int(1), &int(0)),
            Err(FoldError::zero_division(
                "integer division or modulo by zero"
            ))
        );
        assert_eq!(
            fold_binary(BinOp::Div, &int(1), &int(0)),
            Err(FoldError::zero_division("division by zero"))
        );
        assert!(fold_binary(BinOp::Mul, &int(i64::MAX), &int(2)).is_err());
        assert_eq!(
            fold_binary(BinOp::Add, &Value::str("a"), &int(1)),
            Err(FoldError::type_error(
                "unsupported operand types for `+`: str and int"
            ))
        );
        assert!(fold_binary(BinOp::MatMul, &int(1), &int(1)).is_err());
        assert!(fold_binary(BinOp::BitAnd, &float(1.0), &int(1)).is_err());
    }

    #[test]
    fn sequences() {
        let shape = Value::int_tuple(&[2, 3]);
        assert_eq!(
            fold_binary(BinOp::Add, &shape, &Value::int_tuple(&[1])),
            Ok(Value::int_tuple(&[2, 3, 1]))
        );
        assert_eq!(
            fold_binary(BinOp::Mul, &Value::int_tuple(&[4]), &int(2)),
            Ok(Value::int_tuple(&[4, 4]))
        );
        assert_eq!(
            fold_binary(BinOp::Add, &Value::str("a"), &Value::str("b")),
            Ok(Value::str("ab"))
        );
    }

    #[test]
    fn unary_and_compare() {
        assert_eq!(fold_unary(UnaryOp::Invert, &Value::Bool(true)), Ok(int(-2)));
        assert_eq!(fold_unary(UnaryOp::Neg, &Value::Bool(true)), Ok(int(-1)));
        assert!(fold_unary(UnaryOp::Invert, &float(1.0)).is_err());
        assert_eq!(
            fold_compare(CmpOp::Eq, &int(1), &float(1.0)),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            fold_compare(CmpOp::Lt, &float(f64::NAN), &int(1)),
            Ok(Value::Bool(false))
        );
        assert_eq!(
            fold_compare(
                CmpOp::Lt,
                &Value::int_tuple(&[1, 2]),
                &Value::int_tuple(&[1, 3])
            ),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            fold_compare(
                CmpOp::Eq,
                &Value::DType(marsc_runtime::DType::Float64),
                &Value::str("float64")
            ),
            Ok(Value::Bool(true))
        );
        assert!(fold_compare(CmpOp::Lt, &Value::str("a"), &int(1)).is_err());
    }
}
