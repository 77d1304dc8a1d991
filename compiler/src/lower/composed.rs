//! Statistics and comparisons lowered from existing ops only, each as NumPy's own
//! Python source computes it: `ptp` (max - min), `average` (weighted, with NumPy's
//! shape checks as compile-time diagnostics), `diff` (`prepend` and `append` joined
//! on, then `n` differences of shifted slices; `not_equal` for bools), `ediff1d`,
//! `isclose`/`allclose`, `array_equal`, and `around` (`round`, and the method
//! `a.round(decimals)`). `cov` and `corrcoef` are in `covariance.rs`.

use super::bind::{Arg, BoundArgs};
use super::convert::{bool_arg, int_arg, reduction_axes_arg, shape_text};
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::{promote_types, Casting};
use crate::infer::shapes::{concat_shape, normalize_axis, sorted_unique_axes};
use crate::ops::ReductionOp;
use crate::tileable::{IndexItem, TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::{ReduceOp, Reduction};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `ptp(a, axis=None, keepdims=False)`: `max(a) - min(a)` over the axes.
    pub(super) fn ptp(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.tensor_of(&args.get("a"), None, "`a`")?;
        let mut extremes = Vec::new();
        for name in ["max", "min"] {
            extremes.push(self.apply_args(
                name,
                vec![
                    (None, self.arg_at(Value::Tensor(a), span)),
                    (Some("axis"), args.get("axis")),
                    (Some("keepdims"), args.get("keepdims")),
                ],
                span,
            )?);
        }
        let difference = self.apply(
            "subtract",
            vec![Value::Tensor(extremes[0]), Value::Tensor(extremes[1])],
            span,
        )?;
        Ok(Value::Tensor(difference))
    }

    /// `average(a, axis=None, weights=None, returned=False, *, keepdims=False)`.
    pub(super) fn average(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.tensor_of(&args.get("a"), None, "`a`")?;
        let axis_arg = args.get("axis");
        let ndim = self.shape(a).len();
        // Checked as NumPy's `normalize_axis_tuple` checks them; kept in their order.
        let given_axes = match reduction_axes_arg(&axis_arg, "axis")? {
            None => None,
            Some(axes) => {
                sorted_unique_axes(&axes, ndim, "repeated axis")
                    .map_err(|e| at(e, axis_arg.span))?;
                Some(
                    axes.iter()
                        .map(|&axis| normalize_axis(axis, ndim).map_err(|e| at(e, axis_arg.span)))
                        .collect::<LowerResult<Vec<usize>>>()?,
                )
            }
        };
        let returned = bool_arg(&args.get("returned"), "returned")?;
        let keepdims = args.get("keepdims");
        let weights = args.get("weights");
        let (average, scale) = if matches!(weights.value, Value::None) {
            let mean = self.apply_args(
                "mean",
                vec![
                    (None, self.arg_at(Value::Tensor(a), span)),
                    (Some("axis"), axis_arg.clone()),
                    (Some("keepdims"), keepdims),
                ],
                span,
            )?;
            let size: usize = self.shape(a).iter().product();
            let mean_size: usize = self.shape(mean).iter().product();
            let scale = if mean_size == 0 {
                f64::NAN
            } else {
                size as f64 / mean_size as f64
            };
            (mean, Value::Float(scale))
        } else {
            let w = self.tensor_of(&weights, None, "`weights`")?;
            let result_dtype = if self.dtype(a).is_float() {
                promote_types(self.dtype(a), self.dtype(w))
            } else {
                promote_types(promote_types(self.dtype(a), self.dtype(w)), DType::Float64)
            };
            let w = self.weights_along(a, w, given_axes.as_deref(), &weights, span)?;
            let reduce_args = |this: &Self, x: TileableId| {
                vec![
                    (None, this.arg_at(Value::Tensor(x), span)),
                    (Some("axis"), axis_arg.clone()),
                    (Some("keepdims"), keepdims.clone()),
                ]
            };
            let scale = self.cast(w, result_dtype, span)?;
            let scale = self.apply_args("sum", reduce_args(self, scale), span)?;
            let a_cast = self.cast(a, result_dtype, span)?;
            let w_cast = self.cast(w, result_dtype, span)?;
            let product = self.apply(
                "multiply",
                vec![Value::Tensor(a_cast), Value::Tensor(w_cast)],
                span,
            )?;
            let total = self.apply_args("sum", reduce_args(self, product), span)?;
            let scale = self.weights_must_not_sum_to_zero(scale, span)?;
            let average = self.apply(
                "divide",
                vec![Value::Tensor(total), Value::Tensor(scale)],
                span,
            )?;
            (average, Value::Tensor(scale))
        };
        if !returned {
            return Ok(Value::Tensor(average));
        }
        // `scl` broadcast to the average's shape, in the average's dtype.
        let shape = Value::int_tuple(self.shape(average));
        let dtype = self.dtype(average);
        let scale = match scale {
            Value::Tensor(scale) => {
                let scale = self.cast(scale, dtype, span)?;
                self.apply("broadcast_to", vec![Value::Tensor(scale), shape], span)?
            }
            value => {
                let scale = self.apply("full", vec![shape, value], span)?;
                self.cast(scale, dtype, span)?
            }
        };
        Ok(Value::tuple(vec![
            Value::Tensor(average),
            Value::Tensor(scale),
        ]))
    }

    /// NumPy's `_weights_are_valid`: weights of `a`'s shape, or of the shape of `a`
    /// along `axes` (in their order), set up to broadcast along them.
    fn weights_along(
        &mut self,
        a: TileableId,
        w: TileableId,
        axes: Option<&[usize]>,
        weights: &Arg,
        span: Span,
    ) -> LowerResult<TileableId> {
        let a_shape = self.shape(a).to_vec();
        let w_shape = self.shape(w).to_vec();
        if a_shape == w_shape {
            return Ok(w);
        }
        let shapes_note = format!(
            "`a` has shape {}, `weights` has shape {}",
            shape_text(&a_shape),
            shape_text(&w_shape)
        );
        let Some(axes) = axes else {
            return Err(Diagnostic::error(
                "Axis must be specified when shapes of a and weights differ.",
                weights.span,
            )
            .with_note(shapes_note));
        };
        let along: Vec<usize> = axes.iter().map(|&axis| a_shape[axis]).collect();
        if w_shape != along {
            return Err(Diagnostic::error(
                "Shape of weights must be consistent with shape of a along specified axis.",
                weights.span,
            )
            .with_note(shapes_note));
        }
        // `wgt.transpose(np.argsort(axis))`, then ones everywhere but the axes.
        let mut order: Vec<usize> = (0..axes.len()).collect();
        order.sort_by_key(|&i| axes[i]);
        let order: Vec<i64> = order.iter().map(|&i| i as i64).collect();
        let w = self.transpose_tensor(w, Some(&order), span, span)?;
        let shape: Vec<usize> = a_shape
            .iter()
            .enumerate()
            .map(|(axis, &len)| if axes.contains(&axis) { len } else { 1 })
            .collect();
        self.apply(
            "reshape",
            vec![Value::Tensor(w), Value::int_tuple(&shape)],
            span,
        )
    }

    /// `diff(a, n=1, axis=-1, prepend=<no value>, append=<no value>)`.
    pub(super) fn diff(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let n_arg = args.get("n");
        let n = int_arg(&n_arg, "n")?;
        if n < 0 {
            return Err(Diagnostic::error(
                format!("order must be non-negative but got {n}"),
                n_arg.span,
            ));
        }
        let mut a = self.tensor_of(&a_arg, None, "`a`")?;
        if n == 0 {
            return Ok(Value::Tensor(a));
        }
        let ndim = self.shape(a).len();
        if ndim == 0 {
            return Err(Diagnostic::error(
                "diff requires input that is at least one dimensional",
                a_arg.span,
            ));
        }
        let axis_arg = args.get("axis");
        let axis =
            normalize_axis(int_arg(&axis_arg, "axis")?, ndim).map_err(|e| at(e, axis_arg.span))?;
        a = self.with_diff_edges(args, a, axis)?;
        let op = if self.dtype(a) == DType::Bool {
            "not_equal"
        } else {
            "subtract"
        };
        for _ in 0..n {
            let len = self.shape(a)[axis];
            if len == 0 {
                // Differences of an empty axis are that same empty tensor: stop
                // (NumPy would loop `n` times, `n` as large as 2**62).
                break;
            }
            let later = self.slice_axis(a, axis, 1, len.saturating_sub(1), span)?;
            let earlier = self.slice_axis(a, axis, 0, len.saturating_sub(1), span)?;
            a = self.apply(op, vec![Value::Tensor(later), Value::Tensor(earlier)], span)?;
        }
        Ok(Value::Tensor(a))
    }

    /// `a` between `diff`'s `prepend` and `append`, joined along `axis` as NumPy's
    /// `concatenate` joins them (dtypes promoted; a 0-d edge broadcast to `a`'s shape
    /// with `axis` of length 1). A shape that does not fit is reported at its edge.
    fn with_diff_edges(
        &mut self,
        args: &BoundArgs,
        a: TileableId,
        axis: usize,
    ) -> LowerResult<TileableId> {
        let span = args.call_span;
        let mut pieces = Vec::new();
        let mut error_span = span;
        for name in ["prepend", "append"] {
            if name == "append" {
                pieces.push(a);
            }
            let Some(arg) = args.given(name) else {
                continue;
            };
            let mut edge = self.tensor_of(arg, None, &format!("`{name}`"))?;
            if self.shape(edge).is_empty() {
                let mut shape = self.shape(a).to_vec();
                shape[axis] = 1;
                edge = self.apply(
                    "broadcast_to",
                    vec![Value::Tensor(edge), Value::int_tuple(&shape)],
                    arg.span,
                )?;
            }
            let (edge_shape, a_shape) = (self.shape(edge), self.shape(a));
            let pair: [&[usize]; 2] = match name {
                "prepend" => [edge_shape, a_shape],
                _ => [a_shape, edge_shape],
            };
            if error_span == span && concat_shape(&pair, axis as i64).is_err() {
                error_span = arg.span;
            }
            pieces.push(edge);
        }
        if pieces.len() == 1 {
            return Ok(a);
        }
        let casting = (None, Casting::SameKind);
        self.concatenate_tensors(pieces, Some(axis as i64), casting, error_span, span)
    }

    /// `ediff1d(ary, to_end=None, to_begin=None)`: differences of the raveled
    /// tensor, in its dtype, between `to_begin` and `to_end`.
    pub(super) fn ediff1d(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let ary = self.tensor_of(&args.get("ary"), None, "`ary`")?;
        let ary = self.ravel_tensor(ary, span)?;
        let dtype = self.dtype(ary);
        let len = self.shape(ary)[0];
        let later = self.slice_axis(ary, 0, 1, len.saturating_sub(1), span)?;
        let earlier = self.slice_axis(ary, 0, 0, len.saturating_sub(1), span)?;
        let difference = self.apply(
            "subtract",
            vec![Value::Tensor(later), Value::Tensor(earlier)],
            span,
        )?;
        let (to_begin, to_end) = (args.get("to_begin"), args.get("to_end"));
        if matches!(to_begin.value, Value::None) && matches!(to_end.value, Value::None) {
            return Ok(Value::Tensor(difference));
        }
        let difference = self.cast(difference, dtype, span)?;
        let mut parts = Vec::new();
        for (arg, name) in [(&to_begin, "to_begin"), (&to_end, "to_end")] {
            if matches!(arg.value, Value::None) {
                parts.push(None);
                continue;
            }
            let part = self.tensor_of(arg, None, &format!("`{name}`"))?;
            if !same_kind(self.dtype(part), dtype) {
                return Err(Diagnostic::error(
                    format!(
                        "dtype of `{name}` must be compatible with input `ary` under the \
                         `same_kind` rule."
                    ),
                    arg.span,
                ));
            }
            let part = self.ravel_tensor(part, span)?;
            parts.push(Some(self.cast(part, dtype, span)?));
        }
        let mut pieces = Vec::new();
        if let Some(begin) = parts[0] {
            pieces.push(Value::Tensor(begin));
        }
        pieces.push(Value::Tensor(difference));
        if let Some(end) = parts[1] {
            pieces.push(Value::Tensor(end));
        }
        let joined = self.apply("concatenate", vec![Value::sequence(pieces, true)], span)?;
        Ok(Value::Tensor(joined))
    }

    /// `isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)`, as NumPy 2 computes
    /// it: `b` made float, then `(|a - b| <= atol + rtol * |b|) & isfinite(b) | (a == b)`.
    pub(super) fn isclose(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let x = self.close_operand(&args.get("a"), false)?;
        let y = self.close_operand(&args.get("b"), true)?;
        let rtol = self.close_operand(&args.get("rtol"), false)?;
        let atol = self.close_operand(&args.get("atol"), false)?;
        let equal_nan = bool_arg(&args.get("equal_nan"), "equal_nan")?;
        let difference = self.apply("subtract", vec![x.clone(), y.clone()], span)?;
        let distance = self.apply("absolute", vec![Value::Tensor(difference)], span)?;
        let (tolerance, finite) = match (&y, &rtol, &atol) {
            // Python numbers stay Python numbers, as in NumPy.
            (Value::Float(b), Value::Float(r), Value::Float(t)) => {
                (Value::Float(t + r * b.abs()), Value::Bool(b.is_finite()))
            }
            _ => {
                let magnitude = self.apply("absolute", vec![y.clone()], span)?;
                let scaled = self.apply("multiply", vec![rtol, Value::Tensor(magnitude)], span)?;
                let tolerance = self.apply("add", vec![atol, Value::Tensor(scaled)], span)?;
                let finite = self.apply("isfinite", vec![y.clone()], span)?;
                (Value::Tensor(tolerance), Value::Tensor(finite))
            }
        };
        let near = self.apply("less_equal", vec![Value::Tensor(distance), tolerance], span)?;
        let near = self.apply("logical_and", vec![Value::Tensor(near), finite], span)?;
        let equal = self.apply("equal", vec![x.clone(), y.clone()], span)?;
        let mut result = self.apply(
            "logical_or",
            vec![Value::Tensor(near), Value::Tensor(equal)],
            span,
        )?;
        if equal_nan {
            let both = self.both_nan(x, y, span)?;
            result = self.apply(
                "logical_or",
                vec![Value::Tensor(result), Value::Tensor(both)],
                span,
            )?;
        }
        Ok(Value::Tensor(result))
    }

    /// `allclose(...)`: `all(isclose(...))`, a 0-d bool tensor.
    pub(super) fn allclose(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let Value::Tensor(close) = self.isclose(args)? else {
            return Ok(Value::Poison);
        };
        let all = self.apply("all", vec![Value::Tensor(close)], args.call_span)?;
        Ok(Value::Tensor(all))
    }

    /// `array_equal(a1, a2, equal_nan=False)`: `False` when the shapes differ (known
    /// at compile time, a Python bool as NumPy returns), else a 0-d bool tensor.
    pub(super) fn array_equal(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a1 = self.tensor_of(&args.get("a1"), None, "`a1`")?;
        let a2 = self.tensor_of(&args.get("a2"), None, "`a2`")?;
        let equal_nan = bool_arg(&args.get("equal_nan"), "equal_nan")?;
        if self.shape(a1) != self.shape(a2) {
            return Ok(Value::Bool(false));
        }
        let (a1, a2) = (Value::Tensor(a1), Value::Tensor(a2));
        let mut equal = self.apply("equal", vec![a1.clone(), a2.clone()], span)?;
        if equal_nan {
            let both = self.both_nan(a1, a2, span)?;
            equal = self.apply(
                "logical_or",
                vec![Value::Tensor(equal), Value::Tensor(both)],
                span,
            )?;
        }
        Ok(Value::Tensor(self.apply(
            "all",
            vec![Value::Tensor(equal)],
            span,
        )?))
    }

    fn both_nan(&mut self, x: Value, y: Value, span: Span) -> LowerResult<TileableId> {
        let x_nan = self.apply("isnan", vec![x], span)?;
        let y_nan = self.apply("isnan", vec![y], span)?;
        self.apply(
            "logical_and",
            vec![Value::Tensor(x_nan), Value::Tensor(y_nan)],
            span,
        )
    }

    /// An operand of `isclose`: Python numbers stay numbers (weakly typed, as NumPy
    /// keeps them), lists become tensors; `as_float` makes it float as NumPy makes
    /// `b` (`result_type(b, 1.0)`; a Python int becomes a float).
    fn close_operand(&mut self, arg: &Arg, as_float: bool) -> LowerResult<Value> {
        Ok(match &arg.value {
            Value::Int(v) if as_float => Value::Float(*v as f64),
            Value::Bool(v) if as_float => Value::Float(f64::from(u8::from(*v))),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => arg.value.clone(),
            _ => {
                let id = self.tensor_of(arg, None, "an operand")?;
                if as_float && !self.dtype(id).is_float() {
                    Value::Tensor(self.cast(id, DType::Float64, arg.span)?)
                } else {
                    Value::Tensor(id)
                }
            }
        })
    }

    /// `a[start:start + len]` along `axis`.
    pub(super) fn slice_axis(
        &mut self,
        a: TileableId,
        axis: usize,
        start: usize,
        len: usize,
        span: Span,
    ) -> LowerResult<TileableId> {
        self.slice_axis_step(a, axis, start as i64, 1, len, span)
    }

    /// `len` elements of `a` along `axis` from `start`, `step` apart (negative: back).
    pub(super) fn slice_axis_step(
        &mut self,
        a: TileableId,
        axis: usize,
        start: i64,
        step: i64,
        len: usize,
        span: Span,
    ) -> LowerResult<TileableId> {
        let shape = self.shape(a).to_vec();
        let items: Vec<IndexItem> = shape
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                if i == axis {
                    IndexItem::Slice { start, step, len }
                } else {
                    IndexItem::Slice {
                        start: 0,
                        step: 1,
                        len: n,
                    }
                }
            })
            .collect();
        let mut out_shape = shape;
        out_shape[axis] = len;
        let dtype = self.dtype(a);
        self.add_derived(TileOp::Index { items }, vec![a], out_shape, dtype, span)
    }

    pub(super) fn arg_at(&self, value: Value, span: Span) -> Arg {
        Arg { value, span }
    }
}

/// NumPy's `can_cast(from, to, casting='same_kind')`.
fn same_kind(from: DType, to: DType) -> bool {
    crate::infer::dtypes::can_cast(from, to, crate::infer::dtypes::Casting::SameKind)
}

impl Lowerer<'_> {
    /// A 0-d true once every element of the bool tensor `valid` is true; else a
    /// run-time error at `span` with NumPy's message for `check` (a reduction whose
    /// op is one of the checks, `ReduceOp::check_failure`).
    pub(super) fn run_time_check(
        &mut self,
        valid: TileableId,
        check: ReduceOp,
        span: Span,
    ) -> LowerResult<TileableId> {
        debug_assert!(check.check_failure().is_some(), "{check:?} is not a check");
        let ndim = self.shape(valid).len();
        let reduction = TileOp::Reduce(ReductionOp::Reduce {
            reduction: Reduction {
                op: check,
                ddof: 0.0,
            },
            axes: (0..ndim).collect(),
            keepdims: false,
        });
        self.add_derived(reduction, vec![valid], vec![], DType::Bool, span)
    }

    /// `scale` itself, once a run-time check (a `WeightsCheck` reduction of
    /// `scale != 0`, which fails with NumPy's ZeroDivisionError message) has passed.
    fn weights_must_not_sum_to_zero(
        &mut self,
        scale: TileableId,
        span: Span,
    ) -> LowerResult<TileableId> {
        let nonzero = self.apply(
            "not_equal",
            vec![Value::Tensor(scale), Value::Float(0.0)],
            span,
        )?;
        let ok = self.run_time_check(nonzero, ReduceOp::WeightsCheck, span)?;
        self.apply(
            "where",
            vec![
                Value::Tensor(ok),
                Value::Tensor(scale),
                Value::Float(f64::NAN),
            ],
            span,
        )
    }
}

impl Lowerer<'_> {
    /// `around(a, decimals=0)`, also `round` and `a.round(decimals)`, as NumPy's
    /// `PyArray_Round` computes it: an integer array with `decimals >= 0` is itself; a
    /// float (or, for `decimals == 0`, bool) array is `rint(a * f) / f` in its own
    /// dtype (`rint(a / f) * f` for `decimals < 0`) with `f = 10 ** |decimals|` as
    /// NumPy builds it; an integer array with `decimals < 0` goes through float64
    /// and back to its dtype.
    pub(super) fn around(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a = self.tensor_of(&args.get("a"), None, "`a`")?;
        let decimals = int_arg(&args.get("decimals"), "decimals")?;
        let dtype = self.dtype(a);
        if dtype.is_int() && decimals >= 0 {
            return Ok(Value::Tensor(a));
        }
        if decimals == 0 {
            // `f` is 1: multiplying and dividing by it changes nothing.
            return Ok(Value::Tensor(self.apply(
                "rint",
                vec![Value::Tensor(a)],
                span,
            )?));
        }
        let (first, second) = match decimals > 0 {
            true => ("multiply", "true_divide"),
            false => ("true_divide", "multiply"),
        };
        if dtype == DType::Bool {
            return Err(Diagnostic::error(
                format!(
                    "Cannot cast ufunc '{}' output from dtype('float64') to dtype('bool') \
                     with casting rule 'same_kind'",
                    first.trim_start_matches("true_")
                ),
                span,
            ));
        }
        let f = Value::Float(power_of_ten(decimals.unsigned_abs()));
        let scaled = self.apply(first, vec![Value::Tensor(a), f.clone()], span)?;
        let rounded = self.apply("rint", vec![Value::Tensor(scaled)], span)?;
        let back = self.apply(second, vec![Value::Tensor(rounded), f], span)?;
        Ok(Value::Tensor(self.cast(back, dtype, span)?))
    }
}

/// `10 ** n` as NumPy's `power_of_ten` computes it for `round` (exact up to 1e8,
/// then multiplied by ten a step at a time), so that large `decimals` round as
/// NumPy's do to the last bit.
pub(super) fn power_of_ten(n: u64) -> f64 {
    const EXACT: [f64; 9] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
    match EXACT.get(n as usize) {
        Some(&exact) => exact,
        None => {
            let mut value = 1e9;
            // Past 1e308 it is infinite and stays so: stop there.
            for _ in 9..n.min(400) {
                value *= 10.0;
            }
            value
        }
    }
}
