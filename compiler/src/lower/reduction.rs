//! Reductions (`sum`, `mean`, `var`/`std` with `ddof`, `argmax`, `all`, ...) over an
//! axis, a tuple of axes or all axes, with `keepdims`; and the scans `cumsum` and
//! `cumprod` (`axis=None` ravels first). `dtype=` casts the input first and the
//! result to the requested dtype after, which is what NumPy's accumulator gives.

use super::bind::Arg;
use super::bind::BoundArgs;
use super::convert::{bool_arg, float_arg, optional_strict_int_arg, reduction_axes_arg};
use super::dtype_args::dtype_arg;
use super::elementwise::at;
use super::shape_ops::is_scalar_last_axis;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::{normalize_axis, reduced_shape, sorted_unique_axes};
use crate::ops::ReductionOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::{ReduceOp, Reduction, ScanOp};
use marsc_runtime::DType;

/// The parameter list of this reduction has `dtype=`.
fn takes_dtype(op: ReduceOp) -> bool {
    matches!(
        op,
        ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Mean | ReduceOp::Var | ReduceOp::Std
    )
}

/// The sorted input axes a reduction runs over, from its `axis=` argument.
fn reduction_axes(op: ReduceOp, axis_arg: &Arg, ndim: usize) -> LowerResult<Vec<usize>> {
    let in_range =
        |axis: i64, ndim: usize| normalize_axis(axis, ndim).map_err(|e| at(e, axis_arg.span));
    if matches!(
        op,
        ReduceOp::ArgMax | ReduceOp::ArgMin | ReduceOp::NanArgMax | ReduceOp::NanArgMin
    ) {
        return match optional_strict_int_arg(axis_arg, "axis")? {
            None => Ok((0..ndim).collect()),
            // NumPy reads a 0-d tensor as 1-d here, so axis 0 and -1 reduce over nothing.
            Some(axis) if ndim == 0 => in_range(axis, 1).map(|_| vec![]),
            Some(axis) => in_range(axis, ndim).map(|axis| vec![axis]),
        };
    }
    let ufunc_reduction = !matches!(op, ReduceOp::Mean | ReduceOp::Var | ReduceOp::Std);
    if ndim == 0 && ufunc_reduction && is_scalar_last_axis(&axis_arg.value) {
        return Ok(vec![]);
    }
    match reduction_axes_arg(axis_arg, "axis")? {
        Some(axes) => sorted_unique_axes(&axes, ndim, "duplicate value in 'axis'")
            .map_err(|e| at(e, axis_arg.span)),
        None => Ok((0..ndim).collect()),
    }
}

impl Lowerer<'_> {
    pub(super) fn reduce(&mut self, op: ReduceOp, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        self.reduce_input(op, input, args)
    }

    /// The reduction `op` of `input` (the call's `a`, or a tensor derived from it)
    /// with the call's other arguments. The NaN-skipping ops of a tensor without NaNs
    /// (bool, ints) are the plain ones, as in NumPy.
    pub(super) fn reduce_input(
        &mut self,
        op: ReduceOp,
        mut input: TileableId,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let span = args.call_span;
        if self.dtype(input).is_complex()
            && matches!(
                op,
                ReduceOp::NanMax | ReduceOp::NanMin | ReduceOp::NanArgMax | ReduceOp::NanArgMin
            )
        {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: `{}` of {} tensors",
                    op.name(),
                    self.dtype(input)
                ),
                span,
            ));
        }
        let op = if self.dtype(input).is_float() {
            op
        } else {
            match op {
                ReduceOp::NanMax => ReduceOp::Max,
                ReduceOp::NanMin => ReduceOp::Min,
                ReduceOp::NanArgMax => ReduceOp::ArgMax,
                ReduceOp::NanArgMin => ReduceOp::ArgMin,
                op => op,
            }
        };
        let ndim = self.shape(input).len();
        let axis_arg = args.get("axis");
        let axes = reduction_axes(op, &axis_arg, ndim)?;
        let keepdims = bool_arg(&args.get("keepdims"), "keepdims")?;
        let ddof = if matches!(op, ReduceOp::Var | ReduceOp::Std) {
            float_arg(&args.get("ddof"), "ddof")?
        } else {
            0.0
        };
        let requested = if takes_dtype(op) {
            dtype_arg(&args.get("dtype"))?
        } else {
            None
        };
        if let Some(dtype) = requested {
            input = self.cast(input, dtype, span)?;
        }
        self.check_not_empty(op, input, &axes, span)?;
        let shape = reduced_shape(self.shape(input), &axes, keepdims);
        let dtype = op.result_dtype(self.dtype(input));
        let reduction = TileOp::Reduce(ReductionOp::Reduce {
            reduction: Reduction { op, ddof },
            axes,
            keepdims,
        });
        let mut id = self.add_derived(reduction, vec![input], shape, dtype, span)?;
        if let Some(requested) = requested {
            id = self.cast(id, requested, span)?;
        }
        Ok(Value::Tensor(id))
    }

    /// NumPy refuses to reduce over an axis of length 0 when the reduction has no
    /// identity.
    fn check_not_empty(
        &self,
        op: ReduceOp,
        input: TileableId,
        axes: &[usize],
        span: Span,
    ) -> LowerResult<()> {
        let shape = self.shape(input);
        if !axes.iter().any(|&axis| shape[axis] == 0) {
            return Ok(());
        }
        let message = match op {
            ReduceOp::Max => "zero-size array to reduction operation maximum which has no identity",
            ReduceOp::Min => "zero-size array to reduction operation minimum which has no identity",
            ReduceOp::NanMax => "zero-size array to reduction operation fmax which has no identity",
            ReduceOp::NanMin => "zero-size array to reduction operation fmin which has no identity",
            ReduceOp::ArgMax | ReduceOp::NanArgMax => "attempt to get argmax of an empty sequence",
            ReduceOp::ArgMin | ReduceOp::NanArgMin => "attempt to get argmin of an empty sequence",
            _ => return Ok(()),
        };
        Err(Diagnostic::error(message, span))
    }

    pub(super) fn scan(&mut self, op: ScanOp, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("a"), None, "`a`")?;
        self.scan_input(op, input, args)
    }

    /// The scan `op` of `input` (the call's `a`, or a tensor derived from it) with the
    /// call's other arguments.
    pub(super) fn scan_input(
        &mut self,
        op: ScanOp,
        mut input: TileableId,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let span = args.call_span;
        let axis_arg = args.get("axis");
        let requested = dtype_arg(&args.get("dtype"))?;
        if let Some(dtype) = requested {
            input = self.cast(input, dtype, span)?;
        }
        let axis = optional_strict_int_arg(&axis_arg, "axis")?;
        // NumPy scans a 0-d tensor as a 1-d one, whatever the axis.
        if axis.is_none() || self.shape(input).is_empty() {
            input = self.ravel_tensor(input, span)?;
        }
        let axis = match axis {
            None => 0,
            Some(axis) => {
                normalize_axis(axis, self.shape(input).len()).map_err(|e| at(e, axis_arg.span))?
            }
        };
        let shape = self.shape(input).to_vec();
        let dtype: DType = op.result_dtype(self.dtype(input));
        let mut id = self.add_derived(
            TileOp::Reduce(ReductionOp::Scan { op, axis }),
            vec![input],
            shape,
            dtype,
            span,
        )?;
        if let Some(requested) = requested {
            id = self.cast(id, requested, span)?;
        }
        Ok(Value::Tensor(id))
    }
}
