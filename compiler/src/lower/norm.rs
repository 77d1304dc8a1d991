//! `mt.linalg.norm(x, ord=None, axis=None, keepdims=False)`, lowered from
//! reductions as NumPy's `linalg.norm` computes each order: vector norms over one
//! axis (`None`/2, 1, inf, -inf, 0, any other p), matrix norms over two axes
//! (`None`/'fro', 1, -1, inf, -inf); the matrix orders 2, -2 and 'nuc' reduce the
//! singular values (`decompose.rs`'s SVD), on 2-D tensors only. An order NumPy rejects is NumPy's error at
//! compile time, pointing at `ord`.

use super::bind::{Arg, BoundArgs};
use super::convert::bool_arg;
use super::elementwise::at;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::shapes::normalize_axis;
use crate::tileable::TileableId;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

/// An `ord=` argument.
#[derive(Clone, Debug, PartialEq)]
enum Order {
    Default,
    Number(f64),
    Text(String),
}

impl Order {
    fn is(&self, value: f64) -> bool {
        matches!(self, Order::Number(v) if *v == value)
    }
}

impl Lowerer<'_> {
    pub(super) fn norm(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let x_arg = args.get("x");
        let mut x = self.tensor_of(&x_arg, None, "`x`")?;
        if !self.dtype(x).is_float() {
            x = self.cast(x, DType::Float64, span)?;
        }
        let ord_arg = args.get("ord");
        let order = match &ord_arg.value {
            Value::None => Order::Default,
            Value::Int(v) => Order::Number(*v as f64),
            Value::Bool(v) => Order::Number(f64::from(u8::from(*v))),
            Value::Float(v) => Order::Number(*v),
            Value::Str(text) => Order::Text(text.to_string()),
            other => {
                return Err(Diagnostic::error(
                    format!(
                        "not supported yet: `ord` must be None, a number or a string, got {}",
                        other.a_type_name()
                    ),
                    ord_arg.span,
                ))
            }
        };
        let keepdims = bool_arg(&args.get("keepdims"), "keepdims")?;
        let ndim = self.shape(x).len();
        let axis_arg = args.get("axis");
        if matches!(axis_arg.value, Value::None) && order == Order::Default {
            // NumPy's fast path: the 2-norm of the flattened tensor, any rank.
            let squares = self.apply("multiply", vec![Value::Tensor(x), Value::Tensor(x)], span)?;
            let sum = self.apply_args(
                "sum",
                vec![
                    (None, self.arg_at(Value::Tensor(squares), span)),
                    (Some("keepdims"), self.arg_at(Value::Bool(keepdims), span)),
                ],
                span,
            )?;
            return Ok(Value::Tensor(self.apply(
                "sqrt",
                vec![Value::Tensor(sum)],
                span,
            )?));
        }
        let axes: Vec<usize> = match &axis_arg.value {
            Value::None => (0..ndim).collect(),
            Value::Int(axis) => {
                vec![normalize_axis(*axis, ndim).map_err(|e| at(e, axis_arg.span))?]
            }
            Value::Tuple(items, _) => items
                .iter()
                .map(|item| match item {
                    Value::Int(axis) => {
                        normalize_axis(*axis, ndim).map_err(|e| at(e, axis_arg.span))
                    }
                    _ => Err(axis_type_error(axis_arg.span)),
                })
                .collect::<LowerResult<_>>()?,
            _ => return Err(axis_type_error(axis_arg.span)),
        };
        let result = match axes.as_slice() {
            [axis] => self.vector_norm(x, &order, &ord_arg, *axis, keepdims, span)?,
            [row, column] => {
                if row == column {
                    return Err(Diagnostic::error("Duplicate axes given.", axis_arg.span));
                }
                let result = self.matrix_norm(x, &order, &ord_arg, *row, *column, span)?;
                if keepdims {
                    let mut shape = self.shape(x).to_vec();
                    shape[*row] = 1;
                    shape[*column] = 1;
                    self.apply(
                        "reshape",
                        vec![Value::Tensor(result), Value::int_tuple(&shape)],
                        span,
                    )?
                } else {
                    result
                }
            }
            _ => {
                return Err(Diagnostic::error(
                    "Improper number of dimensions to norm.",
                    if matches!(axis_arg.value, Value::None) {
                        x_arg.span
                    } else {
                        axis_arg.span
                    },
                ))
            }
        };
        Ok(Value::Tensor(result))
    }

    fn vector_norm(
        &mut self,
        x: TileableId,
        order: &Order,
        ord_arg: &Arg,
        axis: usize,
        keepdims: bool,
        span: Span,
    ) -> LowerResult<TileableId> {
        let reduce = |this: &mut Self, name: &str, t: TileableId| {
            this.apply_args(
                name,
                vec![
                    (None, this.arg_at(Value::Tensor(t), span)),
                    (Some("axis"), this.arg_at(Value::Int(axis as i64), span)),
                    (Some("keepdims"), this.arg_at(Value::Bool(keepdims), span)),
                ],
                span,
            )
        };
        let magnitude = |this: &mut Self| this.apply("absolute", vec![Value::Tensor(x)], span);
        match order {
            Order::Number(p) if *p == f64::INFINITY => {
                let a = magnitude(self)?;
                reduce(self, "max", a)
            }
            Order::Number(p) if *p == f64::NEG_INFINITY => {
                let a = magnitude(self)?;
                reduce(self, "min", a)
            }
            Order::Number(p) if *p == 0.0 => {
                let nonzero =
                    self.apply("not_equal", vec![Value::Tensor(x), Value::Int(0)], span)?;
                let nonzero = self.cast(nonzero, self.dtype(x), span)?;
                reduce(self, "sum", nonzero)
            }
            Order::Number(p) if *p == 1.0 => {
                let a = magnitude(self)?;
                reduce(self, "sum", a)
            }
            Order::Default | Order::Number(2.0) => {
                let squares =
                    self.apply("multiply", vec![Value::Tensor(x), Value::Tensor(x)], span)?;
                let sum = reduce(self, "sum", squares)?;
                self.apply("sqrt", vec![Value::Tensor(sum)], span)
            }
            Order::Text(text) => Err(Diagnostic::error(
                format!("Invalid norm order '{text}' for vectors"),
                ord_arg.span,
            )),
            Order::Number(p) => {
                let a = magnitude(self)?;
                let powered =
                    self.apply("power", vec![Value::Tensor(a), Value::Float(*p)], span)?;
                let sum = reduce(self, "sum", powered)?;
                self.apply(
                    "power",
                    vec![Value::Tensor(sum), Value::Float(1.0 / p)],
                    span,
                )
            }
        }
    }

    fn matrix_norm(
        &mut self,
        x: TileableId,
        order: &Order,
        ord_arg: &Arg,
        row: usize,
        column: usize,
        span: Span,
    ) -> LowerResult<TileableId> {
        let sum_then = |this: &mut Self, sum_axis: usize, extreme: &str, extreme_axis: usize| {
            let a = this.apply("absolute", vec![Value::Tensor(x)], span)?;
            let sums = this.apply_args(
                "sum",
                vec![
                    (None, this.arg_at(Value::Tensor(a), span)),
                    (Some("axis"), this.arg_at(Value::Int(sum_axis as i64), span)),
                ],
                span,
            )?;
            this.apply_args(
                extreme,
                vec![
                    (None, this.arg_at(Value::Tensor(sums), span)),
                    (
                        Some("axis"),
                        this.arg_at(Value::Int(extreme_axis as i64), span),
                    ),
                ],
                span,
            )
        };
        // The second axis's position once the first is reduced away.
        let after = |kept: usize, removed: usize| if kept > removed { kept - 1 } else { kept };
        if order.is(2.0) || order.is(-2.0) || *order == Order::Text("nuc".into()) {
            let reduce = match order {
                Order::Text(_) => "sum",
                _ if order.is(2.0) => "max",
                _ => "min",
            };
            let shape = self.shape(x).to_vec();
            if shape.contains(&0) {
                // NumPy reduces no singular values to 0 (`max` and `sum` start there),
                // and has no minimum of none.
                if reduce == "min" {
                    return Err(Diagnostic::error(
                        "zero-size array to reduction operation minimum which has no identity",
                        ord_arg.span,
                    ));
                }
                let kept: Vec<usize> = (0..shape.len())
                    .filter(|&axis| axis != row && axis != column)
                    .map(|axis| shape[axis])
                    .collect();
                let zeros = self.apply("zeros", vec![Value::int_tuple(&kept)], span)?;
                let dtype = self.dtype(x);
                return self.cast(zeros, dtype, span);
            }
            if shape.len() != 2 {
                return self.stacked_singular_value_norm(x, row, column, reduce, span);
            }
            return self.singular_value_norm(x, reduce, span);
        }
        match order {
            Order::Number(p) if *p == 1.0 => sum_then(self, row, "max", after(column, row)),
            Order::Number(p) if *p == -1.0 => sum_then(self, row, "min", after(column, row)),
            Order::Number(p) if *p == f64::INFINITY => {
                sum_then(self, column, "max", after(row, column))
            }
            Order::Number(p) if *p == f64::NEG_INFINITY => {
                sum_then(self, column, "min", after(row, column))
            }
            Order::Default => self.frobenius(x, row, column, span),
            Order::Text(text) if text == "fro" || text == "f" => {
                self.frobenius(x, row, column, span)
            }
            _ => Err(Diagnostic::error(
                "Invalid norm order for matrices.",
                ord_arg.span,
            )),
        }
    }

    fn frobenius(
        &mut self,
        x: TileableId,
        row: usize,
        column: usize,
        span: Span,
    ) -> LowerResult<TileableId> {
        let squares = self.apply("multiply", vec![Value::Tensor(x), Value::Tensor(x)], span)?;
        let axes = Value::tuple(vec![Value::Int(row as i64), Value::Int(column as i64)]);
        let sum = self.apply_args(
            "sum",
            vec![
                (None, self.arg_at(Value::Tensor(squares), span)),
                (Some("axis"), self.arg_at(axes, span)),
            ],
            span,
        )?;
        self.apply("sqrt", vec![Value::Tensor(sum)], span)
    }
}

fn axis_type_error(span: Span) -> Diagnostic {
    Diagnostic::error(
        "'axis' must be None, an integer or a tuple of integers",
        span,
    )
}
