//! `choose(a, choices, mode='raise')` and `a.choose(choices, mode='raise')`, lowered
//! to element-wise ops so that they tile, fuse and JIT-compile as those do: the
//! choices, cast to their common dtype (NumPy's `result_type` of the choices, Python
//! numbers weak), are picked by a chain of `where(a == k, choices[k], ...)`. `a`,
//! every choice and the result broadcast together, with NumPy's `choose` error text
//! when they do not. `mode='wrap'` takes `a` modulo the number of choices (Python's
//! non-negative remainder), `'clip'` clips it into range, and `'raise'` (the default)
//! adds a run-time check — a `ChoiceCheck` reduction of `0 <= a < n`, which fails with
//! NumPy's `invalid entry in choice array`, naming the call — that the result waits
//! for (a `where` on the check's 0-d result). `choices` is a list or tuple of tensors,
//! numbers or nested lists, or a tensor whose first axis indexes the choices.

use super::bind::{Arg, BoundArgs};
use super::convert::{shape_text, str_arg};
use super::elementwise::at;
use super::nodes::python_scalar;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::{result_type, Operand};
use crate::tileable::TileableId;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::ReduceOp;
use marsc_runtime::DType;

/// NumPy's `NPY_MAXARGS`: `choose` broadcasts at most this many arrays (`a` and the
/// choices).
const MAX_ARRAYS: usize = 64;

/// How `choose` treats an index outside `[0, n)`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Raise,
    Wrap,
    Clip,
}

impl Lowerer<'_> {
    /// `choose(a, choices, out=None, mode='raise')`, or with `as_method`
    /// `a.choose(*choices, mode='raise')` (several positional arguments are the
    /// choices, as NumPy's method takes them).
    pub(super) fn choose(&mut self, args: &BoundArgs, as_method: bool) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = if as_method {
            args.receiver()
        } else {
            args.get("a")
        };
        let mode = mode_arg(&args.get("mode"))?;
        let choices = if as_method {
            match args.rest() {
                [] => {
                    return Err(Diagnostic::error(
                        "choose() takes exactly 1 argument (0 given)",
                        span,
                    ))
                }
                [one] => self.choice_items(one)?,
                several => several.to_vec(),
            }
        } else {
            self.choice_items(&args.get("choices"))?
        };
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let a_dtype = self.dtype(a);
        if a_dtype.is_float() {
            return Err(Diagnostic::error(
                format!(
                    "Cannot cast array data from dtype('{a_dtype}') to dtype('int64') according to the rule 'safe'"
                ),
                a_arg.span,
            ));
        }
        let a = self.cast(a, DType::Int64, span)?;
        let n = choices.len();
        if n == 0 {
            return Err(Diagnostic::error("0-length sequence.", span));
        }
        if n + 1 > MAX_ARRAYS {
            return Err(Diagnostic::error(
                format!("Need at least 0 and at most {MAX_ARRAYS} array objects."),
                span,
            )
            .with_label(format!("{n} choices")));
        }
        // Lists become (strongly typed) tensors; Python numbers stay weak.
        let mut values = Vec::with_capacity(n);
        for choice in &choices {
            let value = match &choice.value {
                Value::Tensor(_)
                | Value::Int(_)
                | Value::Float(_)
                | Value::Complex(..)
                | Value::Bool(_) => choice.value.clone(),
                Value::List(_) | Value::Tuple(..) => {
                    Value::Tensor(self.literal_tensor(choice, None, None)?)
                }
                other => {
                    return Err(Diagnostic::error(
                        format!(
                            "a choice must be a tensor or a number, got {}",
                            other.type_name()
                        ),
                        choice.span,
                    ))
                }
            };
            values.push(value);
        }
        let operands: Vec<Operand> = values.iter().filter_map(|v| self.operand(v)).collect();
        let dtype = result_type(&operands).map_err(|e| at(e, span))?;
        // NumPy broadcasts the choices, then `a`, as one multi-iterator.
        let mut shapes: Vec<Vec<usize>> = values
            .iter()
            .map(|value| match value {
                Value::Tensor(id) => self.shape(*id).to_vec(),
                _ => Vec::new(),
            })
            .collect();
        shapes.push(self.shape(a).to_vec());
        check_broadcast(&shapes).map_err(|message| Diagnostic::error(message, span))?;
        let mut tensors = Vec::with_capacity(n);
        for (value, choice) in values.iter().zip(&choices) {
            let tensor = match value {
                Value::Tensor(id) => self.cast(*id, dtype, span)?,
                scalar => {
                    let scalar = python_scalar(scalar, Some(dtype), choice.span)?;
                    self.scalar_tensor(scalar, choice.span)
                }
            };
            tensors.push(tensor);
        }
        let count = Value::Int(n as i64);
        let index = match mode {
            Mode::Raise => a,
            Mode::Wrap => self.apply("remainder", vec![Value::Tensor(a), count], span)?,
            Mode::Clip => self.apply(
                "clip",
                vec![Value::Tensor(a), Value::Int(0), Value::Int(n as i64 - 1)],
                span,
            )?,
        };
        let mut result = tensors[n - 1];
        for k in (0..n.saturating_sub(1)).rev() {
            result = self.choice_where(index, k, tensors[k], result, span)?;
        }
        if n == 1 {
            // One choice: the result still has `a`'s (broadcast) shape.
            result = self.choice_where(index, 0, result, result, span)?;
        }
        if mode == Mode::Raise {
            let ok = self.choice_check(a, n, span)?;
            result = self.apply(
                "where",
                vec![
                    Value::Tensor(ok),
                    Value::Tensor(result),
                    Value::Tensor(result),
                ],
                span,
            )?;
        }
        Ok(Value::Tensor(result))
    }

    /// The choices of `choose`: the items of a list or tuple, or the rows of a
    /// tensor along its first axis.
    fn choice_items(&mut self, choices: &Arg) -> LowerResult<Vec<Arg>> {
        let span = choices.span;
        match &choices.value {
            Value::List(items) | Value::Tuple(items, _) => Ok(items
                .iter()
                .map(|value| Arg {
                    value: value.clone(),
                    span,
                })
                .collect()),
            Value::Tensor(id) => {
                let id = *id;
                let Some(&rows) = self.shape(id).first() else {
                    return Err(Diagnostic::error("iteration over a 0-d array", span));
                };
                if rows + 1 > MAX_ARRAYS {
                    return Err(Diagnostic::error(
                        format!("Need at least 0 and at most {MAX_ARRAYS} array objects."),
                        span,
                    )
                    .with_label(format!("{rows} choices")));
                }
                let mut items = Vec::with_capacity(rows);
                for row in 0..rows {
                    let slice = self.slice_axis(id, 0, row, 1, span)?;
                    let item = self.squeeze_tensor(slice, Some(&[0]), span, span)?;
                    items.push(Arg {
                        value: Value::Tensor(item),
                        span,
                    });
                }
                Ok(items)
            }
            other => Err(Diagnostic::error(
                format!("'{}' object is not iterable", other.type_name()),
                span,
            )),
        }
    }

    /// `where(index == k, chosen, otherwise)`.
    fn choice_where(
        &mut self,
        index: TileableId,
        k: usize,
        chosen: TileableId,
        otherwise: TileableId,
        span: Span,
    ) -> LowerResult<TileableId> {
        let is_k = self.apply(
            "equal",
            vec![Value::Tensor(index), Value::Int(k as i64)],
            span,
        )?;
        self.apply(
            "where",
            vec![
                Value::Tensor(is_k),
                Value::Tensor(chosen),
                Value::Tensor(otherwise),
            ],
            span,
        )
    }

    /// A 0-d true once every index of `a` is in `[0, n)`; a run-time error at
    /// `span`, NumPy's `invalid entry in choice array`, otherwise.
    fn choice_check(&mut self, a: TileableId, n: usize, span: Span) -> LowerResult<TileableId> {
        let low = self.apply("greater_equal", vec![Value::Tensor(a), Value::Int(0)], span)?;
        let high = self.apply("less", vec![Value::Tensor(a), Value::Int(n as i64)], span)?;
        let valid = self.apply(
            "logical_and",
            vec![Value::Tensor(low), Value::Tensor(high)],
            span,
        )?;
        self.run_time_check(valid, ReduceOp::ChoiceCheck, span)
    }
}

/// `mode=` of `choose`: NumPy's clip-mode names, exactly.
fn mode_arg(arg: &Arg) -> LowerResult<Mode> {
    let name = str_arg(arg, "mode")?;
    match name {
        "raise" => Ok(Mode::Raise),
        "wrap" => Ok(Mode::Wrap),
        "clip" => Ok(Mode::Clip),
        // NumPy once took any word starting with the mode's letter.
        _ if name
            .chars()
            .next()
            .is_some_and(|c| matches!(c.to_ascii_lowercase(), 'c' | 'r' | 'w')) =>
        {
            Err(Diagnostic::error(
                "Use one of 'clip', 'raise', or 'wrap' for clip mode",
                arg.span,
            ))
        }
        _ => Err(Diagnostic::error(
            format!("clipmode must be one of 'clip', 'raise', or 'wrap' (got '{name}')"),
            arg.span,
        )),
    }
}

/// NumPy's multi-iterator broadcast of `shapes` (`PyArray_Broadcast`): axes aligned
/// from the right, and at the first axis (from the left) where two lengths other
/// than 1 differ, its error naming the first array that set the length and the one
/// that disagrees.
fn check_broadcast(shapes: &[Vec<usize>]) -> Result<(), String> {
    let ndim = shapes.iter().map(Vec::len).max().unwrap_or(0);
    for axis in 0..ndim {
        let mut length = 1;
        let mut source = 0;
        for (j, shape) in shapes.iter().enumerate() {
            let Some(k) = (axis + shape.len()).checked_sub(ndim) else {
                continue;
            };
            let len = shape[k];
            if len == 1 {
                continue;
            }
            if length == 1 {
                length = len;
                source = j;
            } else if length != len {
                return Err(format!(
                    "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg {source} with shape {} and arg {j} with shape {}.",
                    shape_text(&shapes[source]),
                    shape_text(shape)
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_broadcast;

    #[test]
    fn broadcast_errors_name_numpys_args() {
        assert!(check_broadcast(&[vec![2, 1], vec![3], vec![]]).is_ok());
        // `np.choose(np.zeros(3, int), [[1, 2], [1, 2]])`.
        assert_eq!(
            check_broadcast(&[vec![2], vec![2], vec![3]]).unwrap_err(),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (2,) and arg 2 with shape (3,)."
        );
        // Leftmost axis first: (4, 1, 3) against (2, 5).
        assert_eq!(
            check_broadcast(&[vec![4, 1, 3], vec![2, 5]]).unwrap_err(),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (4, 1, 3) and arg 1 with shape (2, 5)."
        );
    }
}
