//! Python's iteration builtins on compile-time values: `range`, `enumerate`, `zip`,
//! `list` and `tuple`, with Python's results and errors.
//!
//! A `range` stays lazy ([`PyRange`]); the others build their tuple or list now.
//! Over a tensor they are supported in a `for` header (`for i, row in
//! enumerate(x):`, see `control.rs`), where each row keeps its identity as a view of
//! the tensor; elsewhere a tensor's rows would lose it, so that is "not supported
//! yet" rather than a list whose in-place updates NumPy would see and marsc not.

use super::bind::{Arg, BoundArgs};
use super::builtins::not_iterable;
use super::value::{PyRange, Value};
use super::{LowerResult, Lowerer};
use marsc_grammar::{Diagnostic, Span};

impl Lowerer<'_> {
    /// `range(stop)`, `range(start, stop[, step])`.
    pub(super) fn range_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let given = args.rest();
        if given.iter().any(|a| a.value.is_poison()) {
            return Ok(Value::Poison);
        }
        let ints = given
            .iter()
            .map(range_int)
            .collect::<LowerResult<Vec<i64>>>()?;
        let (start, stop, step) = match ints[..] {
            [stop] => (0, stop, 1),
            [start, stop] => (start, stop, 1),
            [start, stop, step] => (start, stop, step),
            [] => {
                return Err(Diagnostic::error(
                    "range expected at least 1 argument, got 0",
                    args.call_span,
                ))
            }
            _ => {
                return Err(Diagnostic::error(
                    format!("range expected at most 3 arguments, got {}", ints.len()),
                    args.call_span,
                ))
            }
        };
        if step == 0 {
            return Err(Diagnostic::error(
                "range() arg 3 must not be zero",
                given[2].span,
            ));
        }
        Ok(Value::Range(PyRange { start, stop, step }))
    }

    /// `enumerate(iterable, start=0)`: a list of `(index, item)` tuples.
    pub(super) fn enumerate_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let iterable = args.get("iterable");
        let start = args.get("start");
        let start = match start.value {
            Value::Int(v) => v,
            Value::Bool(b) => i64::from(b),
            ref other => {
                return Err(Diagnostic::error(
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        other.type_name()
                    ),
                    start.span,
                ))
            }
        };
        let items = python_items(&iterable, "enumerate")?;
        let pairs = items
            .into_iter()
            .enumerate()
            .map(|(i, item)| Value::tuple(vec![Value::Int(start + i as i64), item]))
            .collect();
        Ok(Value::sequence(pairs, true))
    }

    /// `zip(*iterables)`: a list of tuples, as long as the shortest iterable.
    pub(super) fn zip_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let columns = args
            .rest()
            .iter()
            .map(|arg| python_items(arg, "zip"))
            .collect::<LowerResult<Vec<_>>>()?;
        let length = columns.iter().map(Vec::len).min().unwrap_or(0);
        let rows = (0..length)
            .map(|i| Value::tuple(columns.iter().map(|column| column[i].clone()).collect()))
            .collect();
        Ok(Value::sequence(rows, true))
    }

    /// `list(iterable)` / `tuple(iterable)`; `list()` is `[]`.
    pub(super) fn sequence_builtin(
        &mut self,
        is_list: bool,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let Some(iterable) = args.given("iterable") else {
            return Ok(Value::sequence(Vec::new(), is_list));
        };
        let name = if is_list { "list" } else { "tuple" };
        let items = python_items(iterable, name)?;
        Ok(Value::sequence(items, is_list))
    }
}

/// An argument of `range`: an int (a bool counts, as in Python).
fn range_int(arg: &Arg) -> LowerResult<i64> {
    match &arg.value {
        Value::Int(v) => Ok(*v),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Tensor(_) => Err(Diagnostic::error(
            "not supported yet: `range` of a tensor's value",
            arg.span,
        )
        .with_label("a tensor: its value is known only when the program runs")
        .with_help("use a Python int, e.g. a shape: `range(x.shape[0])`")),
        other => Err(Diagnostic::error(
            format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ),
            arg.span,
        )),
    }
}

/// The items of a Python value, if it is an iterable whose items are known now.
pub(super) enum PythonItems {
    Items(Vec<Value>),
    /// A range longer than [`MAX_ITERATIONS`](super::control::MAX_ITERATIONS).
    TooMany(u64),
    NotIterable,
}

/// The items of a tuple, list, string or range (not of a tensor: see `control.rs`).
pub(super) fn python_values(value: &Value) -> PythonItems {
    match value {
        Value::Tuple(items, _) | Value::List(items) => PythonItems::Items(items.to_vec()),
        Value::Str(text) => {
            PythonItems::Items(text.chars().map(|c| Value::str(&c.to_string())).collect())
        }
        Value::Range(range) if range.len() > super::control::MAX_ITERATIONS => {
            PythonItems::TooMany(range.len())
        }
        Value::Range(range) => PythonItems::Items(
            (0..range.len())
                .map(|i| Value::Int(range.item(i)))
                .collect(),
        ),
        _ => PythonItems::NotIterable,
    }
}

/// The items of an argument of `enumerate`, `zip`, `list` or `tuple`.
fn python_items(arg: &Arg, function: &str) -> LowerResult<Vec<Value>> {
    if let Value::Tensor(_) = arg.value {
        return Err(tensor_items(function, arg.span));
    }
    match python_values(&arg.value) {
        PythonItems::Items(values) => Ok(values),
        PythonItems::TooMany(length) => Err(Diagnostic::error(
            format!("not supported: `{function}()` of a range of {length} items"),
            arg.span,
        )),
        PythonItems::NotIterable => Err(not_iterable(&arg.value, arg.span)),
    }
}

fn tensor_items(function: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!("not supported yet: `{function}()` of a tensor outside a `for` header"),
        span,
    )
    .with_label("a tensor")
    .with_help(format!(
        "loop over it directly: `for i, row in {function}(x):`, or index it: `x[i]`"
    ))
}
