//! Linear algebra: `matmul`/`@` and `dot` with NumPy's 1-D rules (a 1-D left
//! operand is a row, a 1-D right operand a column, and the added axis is squeezed
//! away afterwards), `dot` with a scalar as multiplication, and `outer` as a
//! broadcast multiplication of a column by a row. `matmul` of stacks `(..., n, k)`
//! broadcasts the leading axes as NumPy's does, through `einsum`
//! (`...ij,...jk->...ik`: a product per matrix pair, summed along `j`).

use super::bind::{Arg, BoundArgs};
use super::convert::shape_text;
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::promote_types;
use crate::infer::shapes::{broadcast_shapes, matmul_shape};
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::BinaryOp;
use marsc_runtime::DType;

const GUFUNC_SIGNATURE: &str = "(n?,k),(k,m?)->(n?,m?)";

impl Lowerer<'_> {
    /// An operand of `matmul`/`dot` as a tensor (lists become literals).
    fn linalg_operand(
        &mut self,
        arg: &Arg,
        index: usize,
        function: &str,
        stacks: bool,
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
        if ndim > 2 && !stacks {
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
        let left = self.linalg_operand(a, 0, "matmul", true)?;
        let right = self.linalg_operand(b, 1, "matmul", true)?;
        if self.shape(left).len() > 2 || self.shape(right).len() > 2 {
            return self.stacked_matmul(left, right, error_span, span);
        }
        self.matmul_tensors(left, right, error_span, span)
    }

    /// NumPy's `matmul` with an operand of more than two dimensions: a stack of
    /// matrices (a 1-D operand a vector for each), the leading axes broadcast;
    /// NumPy's messages for mismatched core or leading axes.
    fn stacked_matmul(
        &mut self,
        left: TileableId,
        right: TileableId,
        error_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let (a, b) = (self.shape(left).to_vec(), self.shape(right).to_vec());
        let a_inner = a[a.len() - 1];
        let b_inner = if b.len() == 1 { b[0] } else { b[b.len() - 2] };
        if a_inner != b_inner {
            return Err(Diagnostic::error(
                format!(
                    "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
                     signature {GUFUNC_SIGNATURE} (size {b_inner} is different from {a_inner})"
                ),
                error_span,
            ));
        }
        let a_core = a.len().min(2);
        let b_core = b.len().min(2);
        let (a_lead, b_lead) = (&a[..a.len() - a_core], &b[..b.len() - b_core]);
        if broadcast_shapes(&[a_lead, b_lead]).is_err() {
            let text = |items: Vec<String>| format!("({})", items.join(","));
            let numbers = |shape: &[usize]| shape.iter().map(usize::to_string).collect();
            let remapped = |lead: &[usize], core: usize| {
                let mut items: Vec<String> = numbers(lead);
                items.extend((0..core).map(|_| "newaxis".to_string()));
                text(items)
            };
            let mut requested = Vec::new();
            if a.len() >= 2 {
                requested.push(a[a.len() - 2]);
            }
            if b.len() >= 2 {
                requested.push(b[b.len() - 1]);
            }
            return Err(Diagnostic::error(
                format!(
                    "operands could not be broadcast together with remapped shapes \
                     [original->remapped]: {}->{} {}->{}  and requested shape {}",
                    text(numbers(&a)),
                    remapped(a_lead, a_core),
                    text(numbers(&b)),
                    remapped(b_lead, b_core),
                    text(numbers(&requested)),
                ),
                error_span,
            ));
        }
        let subscripts = match (a.len(), b.len()) {
            (1, _) => "j,...jk->...k",
            (_, 1) => "...ij,j->...i",
            _ => "...ij,...jk->...ik",
        };
        // Booleans as NumPy's matmul takes them: any of the pairwise ands, here a
        // sum of int products that is not zero.
        let boolean = self.dtype(left).is_bool() && self.dtype(right).is_bool();
        let (left, right) = if boolean {
            (
                self.cast(left, DType::Int64, span)?,
                self.cast(right, DType::Int64, span)?,
            )
        } else {
            (left, right)
        };
        let product = self.apply(
            "einsum",
            vec![
                Value::Str(subscripts.into()),
                Value::Tensor(left),
                Value::Tensor(right),
            ],
            span,
        )?;
        if !boolean {
            return Ok(Value::Tensor(product));
        }
        let nonzero = self.apply(
            "not_equal",
            vec![Value::Tensor(product), Value::Int(0)],
            span,
        )?;
        Ok(Value::Tensor(nonzero))
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
        let left = self.linalg_operand(&a, 0, "dot", false)?;
        let right = self.linalg_operand(&b, 1, "dot", false)?;
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
