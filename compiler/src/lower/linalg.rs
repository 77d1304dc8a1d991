//! Linear algebra: `matmul`/`@` and `dot` with NumPy's 1-D rules (a 1-D left
//! operand is a row, a 1-D right operand a column, and the added axis is squeezed
//! away afterwards), `dot` with a scalar as multiplication, and `outer` as a
//! broadcast multiplication of a column by a row.

use super::bind::{Arg, BoundArgs};
use super::convert::shape_text;
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::promote_types;
use crate::infer::shapes::matmul_shape;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::BinaryOp;

const GUFUNC_SIGNATURE: &str = "(n?,k),(k,m?)->(n?,m?)";

impl Lowerer<'_> {
    /// An operand of `matmul`/`dot` as a tensor (lists become literals).
    fn linalg_operand(
        &mut self,
        arg: &Arg,
        index: usize,
        function: &str,
    ) -> LowerResult<TileableId> {
        let id = self.tensor_of(arg, None, "an operand")?;
        let ndim = self.shape(id).len();
        if ndim == 0 {
            return Err(Diagnostic::error(
                format!(
                    "{function}: Input operand {index} does not have enough dimensions \
                     (has 0, gufunc core with signature {GUFUNC_SIGNATURE} requires 1)"
                ),
                arg.span,
            )
            .with_help("use `*` to multiply by a scalar"));
        }
        if ndim > 2 {
            return Err(Diagnostic::error(
                format!("not supported yet: `{function}` of tensors with more than 2 dimensions"),
                arg.span,
            ));
        }
        Ok(id)
    }

    /// `a @ b` / `matmul(a, b)`; shape errors point at `error_span`.
    pub(super) fn matmul(
        &mut self,
        a: &Arg,
        b: &Arg,
        error_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let left = self.linalg_operand(a, 0, "matmul")?;
        let right = self.linalg_operand(b, 1, "matmul")?;
        self.matmul_tensors(left, right, error_span, span)
    }

    pub(super) fn matmul_tensors(
        &mut self,
        left: TileableId,
        right: TileableId,
        error_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let dtype = promote_types(self.dtype(left), self.dtype(right));
        let left_is_vector = self.shape(left).len() == 1;
        let right_is_vector = self.shape(right).len() == 1;
        let mut a = self.cast(left, dtype, span)?;
        let mut b = self.cast(right, dtype, span)?;
        if left_is_vector {
            a = self.expand_dims_tensor(a, &[0], span, span)?;
        }
        if right_is_vector {
            b = self.expand_dims_tensor(b, &[1], span, span)?;
        }
        let shape = matmul_shape(self.shape(a), self.shape(b)).map_err(|e| at(e, error_span))?;
        let product = self.add_derived(TileOp::MatMul, vec![a, b], shape, dtype, span)?;
        let mut squeezed = Vec::new();
        if left_is_vector {
            squeezed.push(0);
        }
        if right_is_vector {
            squeezed.push(1);
        }
        let id = if squeezed.is_empty() {
            product
        } else {
            self.squeeze_tensor(product, Some(&squeezed), span, span)?
        };
        Ok(Value::Tensor(id))
    }

    /// `dot(a, b)`: multiplication when either is a scalar, else `matmul`'s rules
    /// with NumPy's `dot` message for mismatched shapes.
    pub(super) fn dot(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (a, b) = (args.get("a"), args.get("b"));
        let span = args.call_span;
        let is_scalar = |lowerer: &Self, value: &Value| match value {
            Value::Tensor(id) => lowerer.shape(*id).is_empty(),
            other => other.is_python_scalar(),
        };
        if is_scalar(self, &a.value) || is_scalar(self, &b.value) {
            // `dot` makes arrays of Python scalars first: they are not weak here.
            let a = Arg {
                value: Value::Tensor(self.tensor_of(&a, None, "`a`")?),
                span: a.span,
            };
            let b = Arg {
                value: Value::Tensor(self.tensor_of(&b, None, "`b`")?),
                span: b.span,
            };
            return self.binary(BinaryOp::Multiply, &a, &b, span, span);
        }
        let left = self.linalg_operand(&a, 0, "dot")?;
        let right = self.linalg_operand(&b, 1, "dot")?;
        let (left_shape, right_shape) = (self.shape(left), self.shape(right));
        let left_dim = left_shape.len() - 1;
        let (k_left, k_right) = (left_shape[left_dim], right_shape[0]);
        if k_left != k_right {
            return Err(Diagnostic::error(
                format!(
                    "shapes {} and {} not aligned: {k_left} (dim {left_dim}) != {k_right} (dim 0)",
                    shape_text(left_shape),
                    shape_text(right_shape)
                ),
                span,
            ));
        }
        self.matmul_tensors(left, right, span, span)
    }

    /// `outer(a, b)`: `ravel(a)[:, None] * ravel(b)[None, :]`.
    pub(super) fn outer(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let (a, b) = (args.get("a"), args.get("b"));
        let left = self.tensor_of(&a, None, "`a`")?;
        let right = self.tensor_of(&b, None, "`b`")?;
        let left = self.ravel_tensor(left, span)?;
        let right = self.ravel_tensor(right, span)?;
        let column = self.expand_dims_tensor(left, &[1], span, span)?;
        let row = self.expand_dims_tensor(right, &[0], span, span)?;
        let column = Arg {
            value: Value::Tensor(column),
            span: a.span,
        };
        let row = Arg {
            value: Value::Tensor(row),
            span: b.span,
        };
        self.binary(BinaryOp::Multiply, &column, &row, span, span)
    }
}
