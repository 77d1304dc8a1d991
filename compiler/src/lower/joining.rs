//! Joining tensors: `concatenate` (inputs cast to their promoted dtype), and
//! `stack`, `hstack` and `vstack` built from `expand_dims` and `concatenate`.

use super::bind::{Arg, BoundArgs};
use super::convert::{int_arg, optional_strict_int_arg};
use super::dtype_args::{casting_arg, check_cast, dtype_arg};
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::{promote_types, Casting};
use crate::infer::shapes::{concat_shape, normalize_axis};
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// The tensors of a list/tuple argument (`concatenate`'s `arrays`).
    fn tensor_list(&mut self, arg: &Arg, name: &str) -> LowerResult<Vec<TileableId>> {
        let Some(items) = arg.value.as_sequence() else {
            return Err(Diagnostic::error(
                format!(
                    "`{name}` must be a list or tuple of tensors, got {}",
                    arg.value.type_name()
                ),
                arg.span,
            ));
        };
        items
            .iter()
            .cloned()
            .map(|value| {
                let item = Arg {
                    value,
                    span: arg.span,
                };
                self.tensor_of(&item, None, "each item")
            })
            .collect()
    }

    /// Joins tensors along `axis` (`None` ravels them first), all cast to `dtype`
    /// or to their promoted dtype, under the `casting` rule.
    pub(super) fn concatenate_tensors(
        &mut self,
        mut inputs: Vec<TileableId>,
        axis: Option<i64>,
        (dtype, casting): (Option<DType>, Casting),
        error_span: Span,
        span: Span,
    ) -> LowerResult<TileableId> {
        let axis = match axis {
            Some(axis) => axis,
            None => {
                for input in &mut inputs {
                    *input = self.ravel_tensor(*input, span)?;
                }
                0
            }
        };
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|&id| self.shape(id).to_vec()).collect();
        let refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        let (axis, shape) = concat_shape(&refs, axis).map_err(|e| at(e, error_span))?;
        let dtype = dtype.unwrap_or_else(|| {
            inputs
                .iter()
                .map(|&id| self.dtype(id))
                .reduce(promote_types)
                .unwrap_or(DType::Float64)
        });
        for input in &mut inputs {
            check_cast(self.dtype(*input), dtype, casting, span)?;
            *input = self.cast(*input, dtype, span)?;
        }
        if inputs.len() == 1 {
            return Ok(inputs[0]);
        }
        self.add_derived(TileOp::Concatenate { axis }, inputs, shape, dtype, span)
    }

    /// `concatenate(arrays, axis=0, dtype=None)`.
    pub(super) fn concatenate(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let arrays = args.get("arrays");
        let inputs = self.tensor_list(&arrays, "arrays")?;
        let axis_arg = args.get("axis");
        let axis = optional_strict_int_arg(&axis_arg, "axis")?;
        let dtype = self.join_dtype(args)?;
        let error_span = if axis_arg.span == args.call_span {
            arrays.span
        } else {
            axis_arg.span
        };
        let id = self.concatenate_tensors(inputs, axis, dtype, error_span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `stack(arrays, axis=0)`: each input gets a new axis, then they are joined on it.
    pub(super) fn stack(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let arrays = args.get("arrays");
        let inputs = self.tensor_list(&arrays, "arrays")?;
        let Some(&first) = inputs.first() else {
            return Err(Diagnostic::error(
                "need at least one array to stack",
                arrays.span,
            ));
        };
        if inputs.iter().any(|&id| self.shape(id) != self.shape(first)) {
            return Err(Diagnostic::error(
                "all input arrays must have the same shape",
                arrays.span,
            ));
        }
        let axis_arg = args.get("axis");
        let ndim = self.shape(first).len();
        let axis = normalize_axis(int_arg(&axis_arg, "axis")?, ndim + 1)
            .map_err(|e| at(e, axis_arg.span))?;
        let dtype = self.join_dtype(args)?;
        let span = args.call_span;
        let expanded = inputs
            .into_iter()
            .map(|id| self.expand_dims_tensor(id, &[axis as i64], span, span))
            .collect::<LowerResult<Vec<_>>>()?;
        let id = self.concatenate_tensors(expanded, Some(axis as i64), dtype, arrays.span, span)?;
        Ok(Value::Tensor(id))
    }

    /// `hstack(tup)` (1-D inputs join on axis 0, others on axis 1) and `vstack(tup)`
    /// (1-D inputs become rows).
    pub(super) fn hstack(&mut self, args: &BoundArgs, vertical: bool) -> LowerResult<Value> {
        let tup = args.get("tup");
        let inputs = self.tensor_list(&tup, "tup")?;
        let span = args.call_span;
        let minimum_ndim = if vertical { 2 } else { 1 };
        let mut promoted = Vec::with_capacity(inputs.len());
        for id in inputs {
            promoted.push(self.at_least_nd(id, minimum_ndim, span)?);
        }
        let axis = match promoted.first() {
            Some(&first) if !vertical && self.shape(first).len() > 1 => 1,
            _ => 0,
        };
        let dtype = self.join_dtype(args)?;
        let id = self.concatenate_tensors(promoted, Some(axis), dtype, tup.span, span)?;
        Ok(Value::Tensor(id))
    }

    /// The `dtype=` and `casting=` arguments of the joining functions.
    fn join_dtype(&self, args: &BoundArgs) -> LowerResult<(Option<DType>, Casting)> {
        Ok((
            dtype_arg(&args.get("dtype"))?,
            casting_arg(&args.get("casting"))?,
        ))
    }

    /// NumPy's `atleast_1d` / `atleast_2d`: 0-d becomes `(1,)` or `(1, 1)`, 1-D `(n,)`
    /// becomes `(1, n)` for 2.
    fn at_least_nd(&mut self, id: TileableId, ndim: usize, span: Span) -> LowerResult<TileableId> {
        let have = self.shape(id).len();
        if have >= ndim {
            return Ok(id);
        }
        let axes: Vec<i64> = (0..(ndim - have) as i64).collect();
        self.expand_dims_tensor(id, &axes, span, span)
    }
}
