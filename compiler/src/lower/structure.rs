//! Diagonals and triangles from existing ops, chunking-independent by construction:
//! `diagonal`/`trace` move the two axes last, merge them and take every
//! `(m + 1)`-th element (a strided slice of a reshape); `diag` of a 1-D tensor is
//! `where(eye(n, k=k), padded row, 0)`; `tril`/`triu` are NumPy's
//! `where(tri(n, m, k), x, 0)` with the mask computed from two `arange`s, so every
//! chunk's mask comes from its own global positions.

use super::bind::{Arg, BoundArgs};
use super::convert::int_arg;
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::normalize_axis;
use crate::tileable::{IndexItem, TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `diagonal(a, offset=0, axis1=0, axis2=1)`.
    pub(super) fn diagonal_call(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let a_arg = args.get("a");
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let offset = int_arg(&args.get("offset"), "offset")?;
        let diagonal = self.diagonal_of(
            a,
            offset,
            &args.get("axis1"),
            &args.get("axis2"),
            &a_arg,
            args.call_span,
        )?;
        Ok(Value::Tensor(diagonal))
    }

    /// `trace(a, offset=0, axis1=0, axis2=1, dtype=None)`: the diagonals' sums.
    pub(super) fn trace(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let a = self.tensor_of(&a_arg, None, "`a`")?;
        let offset = int_arg(&args.get("offset"), "offset")?;
        let diagonal = self.diagonal_of(
            a,
            offset,
            &args.get("axis1"),
            &args.get("axis2"),
            &a_arg,
            span,
        )?;
        let sum = self.apply_args(
            "sum",
            vec![
                (None, self.arg_at(Value::Tensor(diagonal), span)),
                (Some("axis"), self.arg_at(Value::Int(-1), span)),
                (Some("dtype"), args.get("dtype")),
            ],
            span,
        )?;
        Ok(Value::Tensor(sum))
    }

    /// The diagonals of `a` over `axis1`/`axis2`, as NumPy's `diagonal`: the other
    /// axes first, the diagonal last.
    pub(super) fn diagonal_of(
        &mut self,
        a: TileableId,
        offset: i64,
        axis1: &Arg,
        axis2: &Arg,
        a_arg: &Arg,
        span: Span,
    ) -> LowerResult<TileableId> {
        let ndim = self.shape(a).len();
        if ndim < 2 {
            return Err(Diagnostic::error(
                "diag requires an array of at least two dimensions",
                a_arg.span,
            ));
        }
        let first =
            normalize_axis(int_arg(axis1, "axis1")?, ndim).map_err(|e| at(e, axis1.span))?;
        let second =
            normalize_axis(int_arg(axis2, "axis2")?, ndim).map_err(|e| at(e, axis2.span))?;
        if first == second {
            return Err(Diagnostic::error(
                "axis1 and axis2 cannot be the same",
                axis2.span,
            ));
        }
        let mut order: Vec<i64> = (0..ndim)
            .filter(|&axis| axis != first && axis != second)
            .map(|axis| axis as i64)
            .collect();
        order.push(first as i64);
        order.push(second as i64);
        let moved = self.transpose_tensor(a, Some(&order), span, span)?;
        let shape = self.shape(moved).to_vec();
        let (n, m) = (shape[ndim - 2], shape[ndim - 1]);
        let mut merged_shape = shape[..ndim - 2].to_vec();
        merged_shape.push(n * m);
        let merged = self.apply(
            "reshape",
            vec![Value::Tensor(moved), Value::int_tuple(&merged_shape)],
            span,
        )?;
        // In i128: `offset` is any Python int that fits in i64.
        let (n, m, offset) = (n as i128, m as i128, i128::from(offset));
        let (start, len) = if offset >= 0 {
            (offset, n.min(m - offset).max(0))
        } else {
            (-offset * m, (n + offset).min(m).max(0))
        };
        let (start, len) = if len == 0 {
            (0, 0)
        } else {
            (start as i64, len as i64)
        };
        let m = m as i64;
        let mut items: Vec<IndexItem> = merged_shape[..ndim - 2]
            .iter()
            .map(|&len| IndexItem::Slice {
                start: 0,
                step: 1,
                len,
            })
            .collect();
        items.push(IndexItem::Slice {
            start,
            step: m + 1,
            len: len as usize,
        });
        let mut out_shape = merged_shape;
        out_shape[ndim - 2] = len as usize;
        let dtype = self.dtype(merged);
        self.add_derived(
            TileOp::Index { items },
            vec![merged],
            out_shape,
            dtype,
            span,
        )
    }

    /// `diag(v, k=0)`: the `k`-th diagonal of a 2-D `v`, or a 2-D tensor with a 1-D
    /// `v` on its `k`-th diagonal.
    pub(super) fn diag(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let v_arg = args.get("v");
        let v = self.tensor_of(&v_arg, None, "`v`")?;
        let k = int_arg(&args.get("k"), "k")?;
        match self.shape(v).len() {
            2 => {
                let zero = self.arg_at(Value::Int(0), span);
                let one = self.arg_at(Value::Int(1), span);
                Ok(Value::Tensor(
                    self.diagonal_of(v, k, &zero, &one, &v_arg, span)?,
                ))
            }
            1 => {
                let len = self.shape(v)[0];
                let n = len + k.unsigned_abs() as usize;
                let dtype = self.dtype(v);
                let pad = k.unsigned_abs() as usize;
                let padding = self.apply(
                    "zeros",
                    vec![Value::Int(pad as i64), Value::ScalarType(dtype)],
                    span,
                )?;
                let pieces = if k >= 0 {
                    vec![Value::Tensor(padding), Value::Tensor(v)]
                } else {
                    vec![Value::Tensor(v), Value::Tensor(padding)]
                };
                let row = self.apply("concatenate", vec![Value::sequence(pieces, true)], span)?;
                let mask = self.apply(
                    "eye",
                    vec![
                        Value::Int(n as i64),
                        Value::None,
                        Value::Int(k),
                        Value::ScalarType(DType::Bool),
                    ],
                    span,
                )?;
                let zero = zero_of(dtype);
                let out = self.apply(
                    "where",
                    vec![Value::Tensor(mask), Value::Tensor(row), zero],
                    span,
                )?;
                Ok(Value::Tensor(out))
            }
            _ => Err(Diagnostic::error("Input must be 1- or 2-d.", v_arg.span)),
        }
    }

    /// `tril(m, k=0)` (`upper == false`) and `triu(m, k=0)`: NumPy's
    /// `where(tri(n, m, k), x, 0)` over the last two axes (a 1-D `m` is broadcast
    /// to `n × n`, as NumPy's `tri(*m.shape[-2:])` does).
    pub(super) fn triangle(&mut self, args: &BoundArgs, upper: bool) -> LowerResult<Value> {
        let span = args.call_span;
        let m_arg = args.get("m");
        let m = self.tensor_of(&m_arg, None, "`m`")?;
        let k = int_arg(&args.get("k"), "k")?;
        let shape = self.shape(m).to_vec();
        let (rows, columns) = match shape.as_slice() {
            [] => {
                return Err(Diagnostic::error(
                    "tri() missing 1 required positional argument: 'N'",
                    m_arg.span,
                ))
            }
            [n] => (*n, *n),
            [.., n, c] => (*n, *c),
        };
        let row_index = self.apply("arange", vec![Value::Int(rows as i64)], span)?;
        let row_index = self.apply(
            "reshape",
            vec![Value::Tensor(row_index), Value::int_tuple(&[rows, 1])],
            span,
        )?;
        let column_index = self.apply("arange", vec![Value::Int(columns as i64)], span)?;
        let offset = self.apply(
            "subtract",
            vec![Value::Tensor(column_index), Value::Tensor(row_index)],
            span,
        )?;
        // tril keeps `j - i <= k`; triu keeps `j - i >= k`.
        let compare = if upper { "greater_equal" } else { "less_equal" };
        let mask = self.apply(compare, vec![Value::Tensor(offset), Value::Int(k)], span)?;
        let zero = zero_of(self.dtype(m));
        let out = self.apply(
            "where",
            vec![Value::Tensor(mask), Value::Tensor(m), zero],
            span,
        )?;
        Ok(Value::Tensor(out))
    }
}

/// A Python zero that keeps `dtype` in `where` (NEP 50: Python scalars are weak).
fn zero_of(dtype: DType) -> Value {
    match dtype {
        DType::Bool => Value::Bool(false),
        float if float.is_float() => Value::Float(0.0),
        _ => Value::Int(0),
    }
}
