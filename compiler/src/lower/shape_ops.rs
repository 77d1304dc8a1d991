//! Shape operations: `reshape` (with the rechunk its plan needs), `ravel`,
//! `transpose`/`swapaxes`/`.T`, `expand_dims`, `squeeze`, `broadcast_to`,
//! `concatenate` and the `stack`/`hstack`/`vstack` built from it, and `rechunk`.

use super::bind::{Arg, BoundArgs};
use super::convert::{axes_arg, c_order_arg, dtype_arg, int_arg, ints_arg, shape_arg};
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::promote_types;
use crate::infer::nsplits::reshape_plan;
use crate::infer::shapes::{
    broadcast_to_check, concat_shape, expand_dims_axes, normalize_axis, reshape_shape,
    squeeze_axes, transpose_axes,
};
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `input` reshaped to `new` (one `-1` allowed). The input is rechunked first
    /// when the reshape plan needs whole rows in each chunk.
    pub(super) fn reshape_tensor(
        &mut self,
        input: TileableId,
        new: &[i64],
        error_span: Span,
        span: Span,
    ) -> LowerResult<TileableId> {
        let shape = reshape_shape(self.shape(input), new).map_err(|e| at(e, error_span))?;
        if shape == self.shape(input) {
            return Ok(input);
        }
        let node = self.node(input);
        let (input_splits, output_splits) = reshape_plan(&node.shape, &node.nsplits, &shape);
        let dtype = node.dtype;
        let source = if input_splits == node.nsplits {
            input
        } else {
            let input_shape = node.shape.clone();
            self.add_with_splits(
                TileOp::Rechunk,
                vec![input],
                input_shape,
                dtype,
                input_splits,
                span,
            )
        };
        Ok(self.add_with_splits(
            TileOp::Reshape,
            vec![source],
            shape,
            dtype,
            output_splits,
            span,
        ))
    }

    /// `input` as a 1-D tensor in C order.
    pub(super) fn ravel_tensor(
        &mut self,
        input: TileableId,
        span: Span,
    ) -> LowerResult<TileableId> {
        if self.shape(input).len() == 1 {
            return Ok(input);
        }
        let size = self.shape(input).iter().product::<usize>() as i64;
        self.reshape_tensor(input, &[size], span, span)
    }

    /// `reshape(a, shape)`.
    pub(super) fn reshape_function(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        c_order_arg(&args.get("order"), "reshape")?;
        let shape_arg_value = args.get("shape");
        let new = ints_arg(&shape_arg_value, "shape")?;
        let id = self.reshape_tensor(input, &new, shape_arg_value.span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `x.reshape(2, 3)` or `x.reshape((2, 3))`.
    pub(super) fn reshape_method(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.receiver(), None, "the receiver")?;
        c_order_arg(&args.get("order"), "reshape")?;
        let new = dims_from_varargs(args, "shape")?
            .ok_or_else(|| Diagnostic::error("`reshape()` needs the new shape", args.call_span))?;
        let error_span = args.get("shape").span;
        let id = self.reshape_tensor(input, &new, error_span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `ravel(a)`, `x.ravel()`, `x.flatten()`.
    pub(super) fn ravel(&mut self, args: &BoundArgs, method_only: bool) -> LowerResult<Value> {
        let subject = if method_only {
            args.receiver()
        } else {
            args.get("a")
        };
        let input = self.tensor_of(&subject, None, "`a`")?;
        c_order_arg(&args.get("order"), args.signature().name)?;
        Ok(Value::Tensor(self.ravel_tensor(input, args.call_span)?))
    }

    /// `input` with its axes permuted (reversed for `None`).
    pub(super) fn transpose_tensor(
        &mut self,
        input: TileableId,
        axes: Option<&[i64]>,
        error_span: Span,
        span: Span,
    ) -> LowerResult<TileableId> {
        let ndim = self.shape(input).len();
        let permutation = transpose_axes(ndim, axes).map_err(|e| at(e, error_span))?;
        if permutation.iter().enumerate().all(|(i, &axis)| i == axis) {
            return Ok(input);
        }
        let shape = permutation
            .iter()
            .map(|&axis| self.shape(input)[axis])
            .collect();
        let dtype = self.dtype(input);
        self.add_derived(
            TileOp::Transpose { axes: permutation },
            vec![input],
            shape,
            dtype,
            span,
        )
    }

    /// `transpose(a, axes=None)`.
    pub(super) fn transpose_function(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        let axes_given = args.get("axes");
        let axes = match axes_given.value {
            Value::None => None,
            _ => Some(ints_arg(&axes_given, "axes")?),
        };
        let id = self.transpose_tensor(input, axes.as_deref(), axes_given.span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `x.transpose()`, `x.transpose(1, 0)`, `x.transpose((1, 0))`.
    pub(super) fn transpose_method(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.receiver(), None, "the receiver")?;
        let axes = dims_from_varargs(args, "axes")?;
        let error_span = args.get("axes").span;
        let id = self.transpose_tensor(input, axes.as_deref(), error_span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `swapaxes(a, axis1, axis2)`.
    pub(super) fn swapaxes(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        let ndim = self.shape(input).len();
        let mut axes = [0usize; 2];
        for (slot, name) in axes.iter_mut().zip(["axis1", "axis2"]) {
            let arg = args.get(name);
            *slot = normalize_axis(int_arg(&arg, name)?, ndim).map_err(|e| at(e, arg.span))?;
        }
        let mut permutation: Vec<i64> = (0..ndim as i64).collect();
        permutation.swap(axes[0], axes[1]);
        let id =
            self.transpose_tensor(input, Some(&permutation), args.call_span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `input` with length-1 axes inserted at the output positions `axes`.
    pub(super) fn expand_dims_tensor(
        &mut self,
        input: TileableId,
        axes: &[i64],
        error_span: Span,
        span: Span,
    ) -> LowerResult<TileableId> {
        let ndim = self.shape(input).len();
        let positions = expand_dims_axes(ndim, axes).map_err(|e| at(e, error_span))?;
        let mut old = self.shape(input).iter();
        let shape = (0..ndim + positions.len())
            .map(|i| {
                if positions.contains(&i) {
                    1
                } else {
                    *old.next().expect("expand_dims keeps every input axis")
                }
            })
            .collect();
        let dtype = self.dtype(input);
        self.add_derived(
            TileOp::ExpandDims { axes: positions },
            vec![input],
            shape,
            dtype,
            span,
        )
    }

    /// `expand_dims(a, axis)`.
    pub(super) fn expand_dims(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        let axis = args.get("axis");
        let axes = axes_arg(&axis, "axis")?.ok_or_else(|| {
            Diagnostic::error(
                "`axis` must be an int or a tuple of ints, got None",
                axis.span,
            )
        })?;
        let id = self.expand_dims_tensor(input, &axes, axis.span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `input` without the length-1 axes `axes` (all of them for `None`).
    pub(super) fn squeeze_tensor(
        &mut self,
        input: TileableId,
        axes: Option<&[i64]>,
        error_span: Span,
        span: Span,
    ) -> LowerResult<TileableId> {
        let removed = squeeze_axes(self.shape(input), axes).map_err(|e| at(e, error_span))?;
        if removed.is_empty() {
            return Ok(input);
        }
        let shape = self
            .shape(input)
            .iter()
            .enumerate()
            .filter(|(axis, _)| !removed.contains(axis))
            .map(|(_, &len)| len)
            .collect();
        let dtype = self.dtype(input);
        self.add_derived(
            TileOp::Squeeze { axes: removed },
            vec![input],
            shape,
            dtype,
            span,
        )
    }

    /// `squeeze(a, axis=None)`.
    pub(super) fn squeeze(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        let axis = args.get("axis");
        let axes = axes_arg(&axis, "axis")?;
        let id = self.squeeze_tensor(input, axes.as_deref(), axis.span, args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `broadcast_to(array, shape)`.
    pub(super) fn broadcast_to(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("array"), None, "`array`")?;
        let shape_given = args.get("shape");
        let shape = shape_arg(&shape_given, "shape")?;
        broadcast_to_check(self.shape(input), &shape).map_err(|e| at(e, shape_given.span))?;
        if shape == self.shape(input) {
            return Ok(Value::Tensor(input));
        }
        let dtype = self.dtype(input);
        let id = self.add_derived(
            TileOp::BroadcastTo,
            vec![input],
            shape,
            dtype,
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
    }

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
            .to_vec()
            .into_iter()
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
    /// or to their promoted dtype.
    fn concatenate_tensors(
        &mut self,
        mut inputs: Vec<TileableId>,
        axis: Option<i64>,
        dtype: Option<DType>,
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
        let axis = match axis_arg.value {
            Value::None => None,
            _ => Some(int_arg(&axis_arg, "axis")?),
        };
        let dtype = dtype_arg(&args.get("dtype"))?;
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
        let dtype = dtype_arg(&args.get("dtype"))?;
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
        let dtype = dtype_arg(&args.get("dtype"))?;
        let id = self.concatenate_tensors(promoted, Some(axis), dtype, tup.span, span)?;
        Ok(Value::Tensor(id))
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

    /// `x.rechunk(chunks)`.
    pub(super) fn rechunk(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.receiver(), None, "the receiver")?;
        let chunks = args.get("chunks");
        Ok(Value::Tensor(self.rechunk_to(
            input,
            Some(&chunks),
            args.call_span,
        )?))
    }

    /// `input` with the chunks `spec` gives (itself when they are the same).
    pub(super) fn rechunk_to(
        &mut self,
        input: TileableId,
        spec: Option<&Arg>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let node = self.node(input);
        let (shape, dtype) = (node.shape.clone(), node.dtype);
        let nsplits = self.resolve_spec(spec, &shape, dtype, span)?;
        if nsplits == self.node(input).nsplits {
            return Ok(input);
        }
        Ok(self.add_with_splits(TileOp::Rechunk, vec![input], shape, dtype, nsplits, span))
    }
}

/// The dimensions of `x.reshape(...)`/`x.transpose(...)`: none, one tuple or list,
/// `None`, or several ints.
fn dims_from_varargs(args: &BoundArgs, name: &str) -> LowerResult<Option<Vec<i64>>> {
    match args.rest() {
        [] => Ok(None),
        [only] if only.value == Value::None => Ok(None),
        [only] => ints_arg(only, name).map(Some),
        several => several
            .iter()
            .map(|arg| int_arg(arg, name))
            .collect::<LowerResult<Vec<i64>>>()
            .map(Some),
    }
}
