//! Shape operations: `reshape` (with the rechunk its plan needs), `ravel`,
//! `transpose`/`swapaxes`/`.T`, `expand_dims`, `squeeze`, `broadcast_to` and
//! `rechunk`. Joining tensors is in [`super::joining`].

use super::bind::{Arg, BoundArgs};
use super::convert::{
    axes_arg, c_order_arg, int_arg, ints_arg, reduction_axes_arg, shape_arg, strict_int_arg,
};
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::nsplits::reshape_plan;
use crate::infer::shapes::{
    broadcast_to_check, expand_dims_axes, normalize_axis, reshape_shape, squeeze_axes,
    transpose_axes,
};
use crate::ops::ShapeOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};

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
        super::nodes::check_ndim(shape.len(), error_span)?;
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
            TileOp::Shape(ShapeOp::Reshape),
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
            TileOp::Shape(ShapeOp::Transpose { axes: permutation }),
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
            TileOp::Shape(ShapeOp::ExpandDims { axes: positions }),
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
            TileOp::Shape(ShapeOp::Squeeze { axes: removed }),
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
        let axes = reduction_axes_arg(&axis, "axis")?;
        if self.shape(input).is_empty() && is_scalar_last_axis(&axis.value) {
            return Ok(Value::Tensor(input));
        }
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
            TileOp::Shape(ShapeOp::BroadcastTo),
            vec![input],
            shape,
            dtype,
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
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

/// NumPy accepts a scalar `axis` of 0 or -1 on a 0-d tensor in `squeeze` and in
/// its ufunc reductions, as if the tensor had one axis (a tuple `(0,)` is refused).
pub(super) fn is_scalar_last_axis(axis: &Value) -> bool {
    matches!(axis, Value::Int(0 | -1))
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
            .map(|arg| strict_int_arg(arg, name))
            .collect::<LowerResult<Vec<i64>>>()
            .map(Some),
    }
}
