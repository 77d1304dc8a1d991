//! Reductions (`sum`, `mean`, `var`/`std` with `ddof`, `argmax`, `all`, ...) over an
//! axis, a tuple of axes or all axes, with `keepdims`; and the scans `cumsum` and
//! `cumprod` (`axis=None` ravels first). `dtype=` casts the input first and the
//! result to the requested dtype after, which is what NumPy's accumulator gives.

use super::bind::BoundArgs;
use super::convert::{axes_arg, bool_arg, dtype_arg, float_arg, optional_int_arg};
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::{normalize_axes, normalize_axis, reduced_shape};
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

impl Lowerer<'_> {
    pub(super) fn reduce(&mut self, op: ReduceOp, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let mut input = self.tensor_of(&args.get("a"), None, "`a`")?;
        let ndim = self.shape(input).len();
        let axis_arg = args.get("axis");
        let axes = if matches!(op, ReduceOp::ArgMax | ReduceOp::ArgMin) {
            optional_int_arg(&axis_arg, "axis")?.map(|axis| vec![axis])
        } else {
            axes_arg(&axis_arg, "axis")?
        };
        let axes = match axes {
            Some(axes) => normalize_axes(&axes, ndim).map_err(|e| at(e, axis_arg.span))?,
            None => (0..ndim).collect(),
        };
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
        let reduction = TileOp::Reduce {
            reduction: Reduction { op, ddof },
            axes,
            keepdims,
        };
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
            ReduceOp::ArgMax => "attempt to get argmax of an empty sequence",
            ReduceOp::ArgMin => "attempt to get argmin of an empty sequence",
            _ => return Ok(()),
        };
        Err(Diagnostic::error(message, span))
    }

    pub(super) fn scan(&mut self, op: ScanOp, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let mut input = self.tensor_of(&args.get("a"), None, "`a`")?;
        let axis_arg = args.get("axis");
        let requested = dtype_arg(&args.get("dtype"))?;
        if let Some(dtype) = requested {
            input = self.cast(input, dtype, span)?;
        }
        let axis = match optional_int_arg(&axis_arg, "axis")? {
            None => {
                input = self.ravel_tensor(input, span)?;
                0
            }
            Some(axis) => {
                normalize_axis(axis, self.shape(input).len()).map_err(|e| at(e, axis_arg.span))?
            }
        };
        let shape = self.shape(input).to_vec();
        let dtype: DType = op.result_dtype(self.dtype(input));
        let mut id =
            self.add_derived(TileOp::Scan { op, axis }, vec![input], shape, dtype, span)?;
        if let Some(requested) = requested {
            id = self.cast(id, requested, span)?;
        }
        Ok(Value::Tensor(id))
    }
}
