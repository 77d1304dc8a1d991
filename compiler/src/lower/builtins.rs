//! Python's builtins `max`, `min`, `sum`, `all`, `any`, `round`, `pow` and `divmod`
//! (and `int`/`float`/`bool` of a tensor) with Python's meaning, on Python values and
//! on tensors alike: the value and type the same script gets under Python + NumPy.
//!
//! On Python values they fold at compile time. A tensor is iterated over its first
//! axis, as Python iterates an `ndarray`, and the loop is rewritten into whole-tensor
//! operations where its result does not depend on values the compiler cannot see:
//! `sum(t)` is `start + t.sum(axis=0)` in the dtype Python's repeated `+` gives, and
//! `max(t)` of a 1-d tensor is the element Python's `if v > cur: cur = v` keeps
//! (which differs from `t.max()` for NaNs and signed zeros). Where Python would test
//! the truth of a multi-element row, the error Python raises is reported at compile
//! time; where the answer is a Python value that depends on a tensor's values
//! (`max(t, 0)` on a 0-d `t`, `all(t)`), it is "not supported yet", never a guess.

use super::bind::{bind, Arg, BoundArgs, CallArg};
use super::fold::{fold_binary, fold_compare, truthy};
use super::library::{self, Home};
use super::value::{PyType, Value};
use super::{LowerResult, Lowerer};
use crate::tileable::TileableId;
use marsc_grammar::ast::{BinOp, CmpOp};
use marsc_grammar::{Diagnostic, Span};

const AMBIGUOUS: &str =
    "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()";
const AMBIGUOUS_EMPTY: &str = "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.";
const ITERATE_0D: &str = "iteration over a 0-d array";

/// "not supported yet" for a Python value that depends on a tensor's values.
fn needs_staging(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!("not supported yet: {what}"), span)
        .with_help("`round(float(t), n)` rounds the Python float")
}

/// The error Python raises when it needs the truth of a tensor of this size, or
/// `None` when the size is one (the truth is then the tensor's value).
pub(super) fn truth_error(size: usize, span: Span) -> Option<Diagnostic> {
    match size {
        1 => None,
        0 => Some(Diagnostic::error(AMBIGUOUS_EMPTY, span)),
        _ => Some(Diagnostic::error(AMBIGUOUS, span)),
    }
}

pub(super) fn not_iterable(value: &Value, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!("'{}' object is not iterable", value.type_name()),
        span,
    )
}

impl Lowerer<'_> {
    /// Calls the library function `name` (`mt.name`) with positional arguments.
    pub(super) fn library_call(
        &mut self,
        name: &str,
        args: Vec<Value>,
        span: Span,
    ) -> LowerResult<Value> {
        self.library_call_with(name, args, Vec::new(), span)
    }

    fn library_call_with(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(&str, Value)>,
        span: Span,
    ) -> LowerResult<Value> {
        let id = library::find(name, Home::Library).expect("a version-1 library function");
        let mut call_args: Vec<CallArg> = args
            .into_iter()
            .map(|value| CallArg {
                keyword: None,
                value,
                span,
            })
            .collect();
        call_args.extend(keywords.into_iter().map(|(keyword, value)| CallArg {
            keyword: Some((keyword.to_string(), span)),
            value,
            span,
        }));
        let bound = bind(id, None, call_args, span)?;
        self.dispatch(bound)
    }

    pub(super) fn size(&self, id: TileableId) -> usize {
        self.shape(id).iter().product()
    }

    /// The first-axis length of a tensor Python iterates; 0-d is Python's TypeError.
    fn iteration_length(&self, id: TileableId, span: Span) -> LowerResult<usize> {
        match self.shape(id).first() {
            Some(&n) => Ok(n),
            None => Err(Diagnostic::error(ITERATE_0D, span)),
        }
    }

    /// `max(...)` / `min(...)`.
    pub(super) fn max_min_builtin(&mut self, is_max: bool, args: &BoundArgs) -> LowerResult<Value> {
        let name = if is_max { "max" } else { "min" };
        let span = args.call_span;
        let positional = args.rest().to_vec();
        if positional.iter().any(|a| a.value.is_poison()) {
            return Ok(Value::Poison);
        }
        let key = args.get("key");
        if key.value != Value::None {
            return Err(Diagnostic::error(
                format!("not supported yet: `key=` in `{name}()`"),
                key.span,
            ));
        }
        let default = args.given("default").cloned();
        match positional.as_slice() {
            [] => Err(Diagnostic::error(
                format!("{name} expected at least 1 argument, got 0"),
                span,
            )),
            [only] => {
                let items = match &only.value {
                    Value::Tensor(id) => {
                        return self.max_min_of_tensor(is_max, *id, default, only.span, span)
                    }
                    Value::Tuple(items, _) | Value::List(items) => items.to_vec(),
                    Value::Str(text) => text.chars().map(|c| Value::str(&c.to_string())).collect(),
                    other => return Err(not_iterable(other, only.span)),
                };
                if items.is_empty() {
                    return default.map(|d| d.value).ok_or_else(|| {
                        Diagnostic::error(format!("{name}() arg is an empty sequence"), only.span)
                    });
                }
                let items: Vec<Arg> = items
                    .into_iter()
                    .map(|value| Arg {
                        value,
                        span: only.span,
                    })
                    .collect();
                self.max_min_of_values(is_max, &items, span)
            }
            several => {
                if let Some(default) = default {
                    return Err(Diagnostic::error(
                        format!("Cannot specify a default for {name}() with multiple positional arguments"),
                        default.span,
                    ));
                }
                self.max_min_of_values(is_max, several, span)
            }
        }
    }

    /// Python's loop `cur = items[0]; for v in items[1:]: if v > cur: cur = v`; a
    /// comparison with a tensor is decided on its value, in a stage.
    fn max_min_of_values(&mut self, is_max: bool, items: &[Arg], span: Span) -> LowerResult<Value> {
        if let [only] = items {
            // One item is the answer without any comparison.
            return Ok(only.value.clone());
        }
        for item in items {
            if let Value::Tensor(id) = item.value {
                if let Some(error) = truth_error(self.size(id), item.span) {
                    return Err(error);
                }
            }
        }
        let op = if is_max { CmpOp::Gt } else { CmpOp::Lt };
        let mut current = items[0].clone();
        for item in &items[1..] {
            let better = if matches!(item.value, Value::Tensor(_))
                || matches!(current.value, Value::Tensor(_))
            {
                self.tensor_compare_operator(
                    op,
                    span,
                    (item.value.clone(), item.span),
                    (current.value.clone(), current.span),
                )?
            } else {
                fold_compare(op, &item.value, &current.value)
                    .map_err(|error| error.at(item.span))?
            };
            // A comparison of tensors is decided on its value, in a stage.
            let Some(better) = self.truth(&better, span)? else {
                return Ok(Value::Poison);
            };
            if better {
                current = item.clone();
            }
        }
        Ok(current.value)
    }

    /// `max(t)` / `min(t)`: Python iterates the first axis and compares rows.
    fn max_min_of_tensor(
        &mut self,
        is_max: bool,
        id: TileableId,
        default: Option<Arg>,
        arg_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let name = if is_max { "max" } else { "min" };
        let n = self.iteration_length(id, arg_span)?;
        if n == 0 {
            return default.map(|d| d.value).ok_or_else(|| {
                Diagnostic::error(format!("{name}() arg is an empty sequence"), arg_span)
            });
        }
        if n == 1 {
            return self.index_int(id, 0, span);
        }
        let row_shape = self.shape(id)[1..].to_vec();
        let row_size: usize = row_shape.iter().product();
        if let Some(error) = truth_error(row_size, arg_span) {
            return Err(error);
        }
        // Rows of one element compare as their values: the loop over the flattened
        // values, reshaped back to a row.
        let flat = if row_shape.is_empty() {
            id
        } else {
            self.reshape_tensor_to(id, &[n], span)?
        };
        let picked = self.python_loop_extreme(is_max, flat, n, span)?;
        if row_shape.is_empty() {
            return Ok(picked);
        }
        let Value::Tensor(picked) = picked else {
            return Ok(picked);
        };
        Ok(Value::Tensor(
            self.reshape_tensor_to(picked, &row_shape, span)?,
        ))
    }

    /// The element of a 1-d tensor that `cur = t[0]; for v in t: if v > cur: cur = v`
    /// keeps. For ints and bools it is `t.max()`. For floats a NaN in first place
    /// wins (nothing compares greater than it), later NaNs never do, and among equal
    /// values (`0.0` and `-0.0`) the first stays:
    /// `u = where(isnan(t), -inf, t); i = argmax(u);
    /// r = where(arange(n) == i, t, -inf).max(); where(isnan(t[0]), t[0], r)`.
    fn python_loop_extreme(
        &mut self,
        is_max: bool,
        t: TileableId,
        n: usize,
        span: Span,
    ) -> LowerResult<Value> {
        let extreme = if is_max { "max" } else { "min" };
        if !self.dtype(t).is_float() {
            return self.library_call(extreme, vec![Value::Tensor(t)], span);
        }
        let worst = Value::Float(if is_max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
        let tensor = Value::Tensor(t);
        let nan = self.library_call("isnan", vec![tensor.clone()], span)?;
        let without_nan =
            self.library_call("where", vec![nan, worst.clone(), tensor.clone()], span)?;
        let arg_extreme = if is_max { "argmax" } else { "argmin" };
        let index = self.library_call(arg_extreme, vec![without_nan], span)?;
        let positions = self.library_call("arange", vec![Value::Int(n as i64)], span)?;
        let chosen = self.library_call("equal", vec![positions, index], span)?;
        let only_chosen = self.library_call("where", vec![chosen, tensor, worst], span)?;
        let picked = self.library_call(extreme, vec![only_chosen], span)?;
        let first = self.index_int(t, 0, span)?;
        let first_is_nan = self.library_call("isnan", vec![first.clone()], span)?;
        self.library_call("where", vec![first_is_nan, first, picked], span)
    }

    fn reshape_tensor_to(
        &mut self,
        id: TileableId,
        shape: &[usize],
        span: Span,
    ) -> LowerResult<TileableId> {
        let shape = Value::int_tuple(shape);
        let reshaped = self.library_call("reshape", vec![Value::Tensor(id), shape], span)?;
        Ok(match reshaped {
            Value::Tensor(reshaped) => reshaped,
            // `reshape` of a tensor always gives a tensor.
            _ => id,
        })
    }

    /// `sum(iterable, start=0)`: `start + item0 + item1 + ...`.
    pub(super) fn sum_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let iterable = args.get("iterable");
        let start = args.get("start");
        match &start.value {
            Value::Str(_) => {
                return Err(Diagnostic::error(
                    "sum() can't sum strings [use ''.join(seq) instead]",
                    start.span,
                ))
            }
            Value::Poison => return Ok(Value::Poison),
            _ => {}
        }
        match &iterable.value {
            Value::Tensor(id) => self.sum_of_tensor(*id, start, iterable.span, span),
            Value::Tuple(items, _) | Value::List(items) => {
                let mut total = start.value.clone();
                for item in items.iter() {
                    total = self.add_values(total, item.clone(), iterable.span, span)?;
                }
                Ok(total)
            }
            other => Err(not_iterable(other, iterable.span)),
        }
    }

    /// `a + b` on Python values or tensors, with errors at `item_span`.
    fn add_values(
        &mut self,
        a: Value,
        b: Value,
        item_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        if matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_)) {
            return self.library_call("add", vec![a, b], span);
        }
        fold_binary(BinOp::Add, &a, &b).map_err(|error| error.at(item_span))
    }

    /// `sum(t, start)`: `start + t.sum(axis=0)` accumulated in the dtype of
    /// `start + t[0]` (Python adds the rows one by one: int32 rows stay int32, bools
    /// become int64 with an int start).
    fn sum_of_tensor(
        &mut self,
        id: TileableId,
        start: Arg,
        arg_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let n = self.iteration_length(id, arg_span)?;
        if n == 0 {
            return Ok(start.value);
        }
        let first = self.index_int(id, 0, span)?;
        let first_sum = self.add_values(start.value.clone(), first, start.span, span)?;
        let Value::Tensor(first_sum) = first_sum else {
            // A tensor plus a value is a tensor (or poison, already reported).
            return Ok(first_sum);
        };
        let dtype = Value::DType(self.dtype(first_sum));
        let rows = self.library_call_with(
            "sum",
            vec![Value::Tensor(id)],
            vec![("axis", Value::Int(0)), ("dtype", dtype)],
            span,
        )?;
        self.add_values(start.value, rows, start.span, span)
    }

    /// `all(iterable)` / `any(iterable)`: a Python bool.
    pub(super) fn all_any_builtin(&mut self, is_all: bool, args: &BoundArgs) -> LowerResult<Value> {
        let name = if is_all { "all" } else { "any" };
        let iterable = args.get("iterable");
        let items: Vec<Value> = match &iterable.value {
            Value::Tensor(id) => {
                let n = self.iteration_length(*id, iterable.span)?;
                if n == 0 {
                    return Ok(Value::Bool(is_all));
                }
                let row_size: usize = self.shape(*id)[1..].iter().product();
                if let Some(error) = truth_error(row_size, iterable.span) {
                    return Err(error);
                }
                // The truth of each row (one element each) is the element's: Python's
                // bool `all(t)` is `t.all()`'s value, computed in a stage.
                let whole =
                    self.library_call(name, vec![iterable.value.clone()], args.call_span)?;
                let Value::Tensor(whole) = whole else {
                    return Ok(whole);
                };
                return Ok(self
                    .staged_scalar(whole, args.call_span)
                    .map_or(Value::Poison, |v| Value::Bool(truthy(&v) == Some(true))));
            }
            Value::Tuple(items, _) | Value::List(items) => items.to_vec(),
            Value::Str(text) => return Ok(Value::Bool(is_all || !text.is_empty())),
            other => return Err(not_iterable(other, iterable.span)),
        };
        // Python stops at the first item that decides.
        for item in items {
            let Some(truth) = self.truth(&item, iterable.span)? else {
                return Ok(Value::Poison);
            };
            if truth != is_all {
                return Ok(Value::Bool(!is_all));
            }
        }
        Ok(Value::Bool(is_all))
    }

    /// `round(number, ndigits=None)`.
    pub(super) fn round_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let number = args.get("number");
        let ndigits = args.get("ndigits");
        let digits = match &ndigits.value {
            Value::None => None,
            Value::Int(v) => Some(*v),
            Value::Bool(b) => Some(*b as i64),
            other => {
                return Err(Diagnostic::error(
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        other.type_name()
                    ),
                    ndigits.span,
                ))
            }
        };
        let fail = |message: &str| Diagnostic::error(message.to_string(), number.span);
        match (&number.value, digits) {
            // A NumPy scalar rounds to a Python int, half to even, as a float does.
            (Value::Tensor(id), None) if self.shape(*id).is_empty() => {
                match self.staged_scalar(*id, args.call_span) {
                    Some(Value::Float(v)) => round_float_to_int(v).map_err(|m| fail(&m)),
                    Some(Value::Int(v)) => Ok(Value::Int(v)),
                    Some(Value::Bool(b)) => Ok(Value::Int(b as i64)),
                    _ => Ok(Value::Poison),
                }
            }
            // A NumPy scalar with `ndigits` rounds as `np.round` does, in its dtype.
            (Value::Tensor(id), Some(digits))
                if self.shape(*id).is_empty()
                    && !matches!(
                        self.dtype(*id),
                        marsc_runtime::DType::Float16 | marsc_runtime::DType::Float32
                    ) =>
            {
                match self.staged_scalar(*id, args.call_span) {
                    Some(Value::Float(v)) => Ok(Value::Float(numpy_round(v, digits))),
                    Some(Value::Int(v)) => round_int(v, Some(digits)).map_err(|m| fail(&m)),
                    Some(Value::Bool(b)) => Ok(Value::Int(b as i64)),
                    _ => Ok(Value::Poison),
                }
            }
            (Value::Tensor(id), Some(_)) if self.shape(*id).is_empty() => Err(needs_staging(
                "`round(t, ndigits)` of a float32 scalar (NumPy rounds it in float32)",
                args.call_span,
            )),
            (Value::Tensor(_), _) => {
                Err(fail("type numpy.ndarray doesn't define __round__ method")
                    .with_help("round each element with `mt.round(t, decimals)`"))
            }
            (Value::Bool(b), digits) => round_int(*b as i64, digits).map_err(|m| fail(&m)),
            (Value::Int(v), digits) => round_int(*v, digits).map_err(|m| fail(&m)),
            (Value::Float(v), None) => round_float_to_int(*v).map_err(|m| fail(&m)),
            (Value::Float(v), Some(digits)) => round_float(*v, digits).map_err(|m| fail(&m)),
            (other, _) => Err(fail(&format!(
                "type {} doesn't define __round__ method",
                other.type_name()
            ))),
        }
    }

    /// `pow(base, exp[, mod])`: `base ** exp`; the three-argument form on ints.
    pub(super) fn pow_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (base, exp, modulus) = (args.get("base"), args.get("exp"), args.get("mod"));
        if modulus.value == Value::None {
            let value = self.binary_operator(
                BinOp::Pow,
                args.call_span,
                (base.value, base.span),
                (exp.value, exp.span),
            );
            return Ok(value);
        }
        let operands = [&base, &exp, &modulus];
        if operands.iter().any(|a| matches!(a.value, Value::Tensor(_))) {
            let names: Vec<&str> = operands
                .iter()
                .map(|a| match a.value {
                    Value::Tensor(_) => "numpy.ndarray",
                    ref other => other.type_name(),
                })
                .collect();
            return Err(Diagnostic::error(
                format!(
                    "unsupported operand type(s) for ** or pow(): '{}', '{}', '{}'",
                    names[0], names[1], names[2]
                ),
                args.call_span,
            ));
        }
        let int = |arg: &Arg| match arg.value {
            Value::Int(v) => Some(v),
            Value::Bool(b) => Some(b as i64),
            _ => None,
        };
        let (Some(b), Some(e), Some(m)) = (int(&base), int(&exp), int(&modulus)) else {
            return Err(Diagnostic::error(
                "pow() 3rd argument not allowed unless all arguments are integers",
                args.call_span,
            ));
        };
        if m == 0 {
            return Err(Diagnostic::error(
                "pow() 3rd argument cannot be 0",
                modulus.span,
            ));
        }
        if e < 0 {
            return Err(Diagnostic::error(
                "not supported yet: `pow()` with a negative exponent and a modulus",
                exp.span,
            ));
        }
        Ok(Value::Int(modular_power(b, e, m)))
    }

    /// `divmod(x, y)`: `(x // y, x % y)`.
    pub(super) fn divmod_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (x, y) = (args.get("x"), args.get("y"));
        let quotient = self.binary_operator(
            BinOp::FloorDiv,
            args.call_span,
            (x.value.clone(), x.span),
            (y.value.clone(), y.span),
        );
        if quotient.is_poison() {
            return Ok(Value::Poison);
        }
        let remainder = self.binary_operator(
            BinOp::Mod,
            args.call_span,
            (x.value, x.span),
            (y.value, y.span),
        );
        Ok(Value::sequence(vec![quotient, remainder], false))
    }

    /// `int(t)`, `float(t)`, `bool(t)` of a tensor: NumPy's errors where the shape
    /// decides, else Python's conversion of its value, computed in a stage.
    pub(super) fn convert_tensor(
        &mut self,
        py_type: PyType,
        id: TileableId,
        span: Span,
    ) -> LowerResult<Value> {
        let (ndim, size) = (self.shape(id).len(), self.size(id));
        if py_type == PyType::Bool {
            if let Some(error) = truth_error(size, span) {
                return Err(error);
            }
        } else if ndim > 0 {
            return Err(Diagnostic::error(
                "only 0-dimensional arrays can be converted to Python scalars",
                span,
            ));
        }
        self.convert_staged(py_type, id, span)
    }

    /// `t.item()`: the Python scalar of a one-element tensor.
    pub(super) fn item_method(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let receiver = args.receiver();
        let Value::Tensor(id) = receiver.value else {
            return Ok(receiver.value);
        };
        if self.size(id) != 1 {
            return Err(Diagnostic::error(
                "can only convert an array of size 1 to a Python scalar",
                args.call_span,
            ));
        }
        Ok(self
            .staged_scalar(id, args.call_span)
            .unwrap_or(Value::Poison))
    }

    /// `t.tolist()`: nested Python lists of the tensor's values.
    pub(super) fn tolist_method(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let receiver = args.receiver();
        let Value::Tensor(id) = receiver.value else {
            return Ok(receiver.value);
        };
        if self.size(id) > super::stage::MAX_STAGED_ELEMENTS {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: `tolist()` of a tensor of over {} elements",
                    super::stage::MAX_STAGED_ELEMENTS
                ),
                args.call_span,
            )
            .with_help("a Python list that long is best kept as a tensor"));
        }
        Ok(self
            .staged_list(id, args.call_span)
            .unwrap_or(Value::Poison))
    }
}

/// Python's `round(int, ndigits)`: ints stay ints; a negative `ndigits` rounds to a
/// power of ten, halves to even.
fn round_int(value: i64, digits: Option<i64>) -> Result<Value, String> {
    let Some(digits) = digits.filter(|&d| d < 0) else {
        return Ok(Value::Int(value));
    };
    let Some(unit) = u32::try_from(-digits)
        .ok()
        .and_then(|d| 10i128.checked_pow(d))
    else {
        return Ok(Value::Int(0));
    };
    let value = i128::from(value);
    let (quotient, remainder) = (value.div_euclid(unit), value.rem_euclid(unit));
    let twice = 2 * remainder;
    let rounded = if twice > unit || (twice == unit && quotient % 2 != 0) {
        quotient + 1
    } else {
        quotient
    };
    i64::try_from(rounded * unit)
        .map(Value::Int)
        .map_err(|_| "not supported yet: integers outside the int64 range".to_string())
}

/// Python's `round(float)`: the nearest int, halves to even.
fn round_float_to_int(value: f64) -> Result<Value, String> {
    if value.is_nan() {
        return Err("cannot convert float NaN to integer".into());
    }
    if value.is_infinite() {
        return Err("cannot convert float infinity to integer".into());
    }
    let rounded = value.round_ties_even();
    if rounded.abs() >= 9.2e18 {
        return Err("not supported yet: integers outside the int64 range".into());
    }
    Ok(Value::Int(rounded as i64))
}

/// Python's `round(float, ndigits)`: correctly rounded to `ndigits` decimals (Rust's
/// formatting rounds the exact binary value, as Python's `dtoa` does).
fn round_float(value: f64, digits: i64) -> Result<Value, String> {
    if !value.is_finite() {
        return Ok(Value::Float(value));
    }
    if digits < 0 {
        return Err("not supported yet: `round()` of a float with negative `ndigits`".into());
    }
    // Beyond 400 decimals every double is already exact.
    let digits = digits.min(400) as usize;
    let text = format!("{value:.digits$}");
    let rounded: f64 = text
        .parse()
        .map_err(|_| "internal: bad rounded float".to_string())?;
    // Python keeps the sign of a value that rounds to zero (`round(-0.4, 0)` is -0.0).
    Ok(Value::Float(if rounded == 0.0 {
        0.0f64.copysign(value)
    } else {
        rounded
    }))
}

/// NumPy's `round(x, digits)` of a float64: `rint(x * 10**d) / 10**d` (for a
/// negative `d`, `rint(x / 10**-d) * 10**-d`), in float64 as NumPy computes it
/// (so `round(np.float64(2.675), 2)` is 2.68 where Python's float gives 2.67).
fn numpy_round(value: f64, digits: i64) -> f64 {
    let scale = super::composed::power_of_ten(digits.unsigned_abs());
    if digits >= 0 {
        (value * scale).round_ties_even() / scale
    } else {
        (value / scale).round_ties_even() * scale
    }
}

/// `base ** exp % modulus` with Python's sign rule (the result has the modulus's sign).
fn modular_power(base: i64, exp: i64, modulus: i64) -> i64 {
    let m = i128::from(modulus);
    let mut result: i128 = 1 % m;
    let mut b = i128::from(base).rem_euclid(m.abs());
    let mut e = exp;
    while e > 0 {
        if e & 1 == 1 {
            result = result * b % m.abs();
        }
        b = b * b % m.abs();
        e >>= 1;
    }
    let r = result.rem_euclid(m.abs());
    // Python: the result takes the sign of the modulus.
    let r = if m < 0 && r != 0 { r + m } else { r };
    r as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_follows_python() {
        assert_eq!(round_float_to_int(2.5), Ok(Value::Int(2)));
        assert_eq!(round_float_to_int(3.5), Ok(Value::Int(4)));
        assert_eq!(round_float_to_int(-2.5), Ok(Value::Int(-2)));
        assert_eq!(round_float(2.675, 2), Ok(Value::Float(2.67)));
        assert_eq!(round_float(0.125, 2), Ok(Value::Float(0.12)));
        assert_eq!(round_int(15, Some(-1)), Ok(Value::Int(20)));
        assert_eq!(round_int(25, Some(-1)), Ok(Value::Int(20)));
        assert_eq!(round_int(-25, Some(-1)), Ok(Value::Int(-20)));
        assert_eq!(round_int(7, Some(2)), Ok(Value::Int(7)));
        assert!(round_float_to_int(f64::NAN).is_err());
    }

    #[test]
    fn modular_powers_follow_python() {
        assert_eq!(modular_power(2, 10, 1000), 24);
        assert_eq!(modular_power(-2, 3, 5), 2);
        assert_eq!(modular_power(2, 3, -5), -2);
        assert_eq!(modular_power(5, 0, 1), 0);
    }
}
