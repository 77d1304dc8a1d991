//! Element-wise operations: the operators on tensors, the unary and binary library
//! functions, `where`, `clip` (as `maximum`/`minimum`) and `astype`. Operands are
//! promoted with NEP 50 (Python scalars are weak), Python scalars become 0-d `Full`
//! nodes of the promoted dtype, and shapes broadcast as NumPy's do.

use super::bind::{Arg, BoundArgs};
use super::convert::{layout_order_arg, shape_text};
use super::dtype_args::{casting_arg, check_cast, dtype_arg};
use super::nodes::{dtype_rule_error, python_scalar};
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::infer::dtypes::{can_cast, result_type, Operand};
use crate::infer::shapes::broadcast_shapes;
use crate::infer::InferError;
use crate::ops::ElementwiseOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::ast::{self, BinOp, CmpOp};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::{BinaryOp, UnaryOp};
use marsc_runtime::DType;

/// An infer error as a diagnostic at `span`.
pub(super) fn at(error: InferError, span: Span) -> Diagnostic {
    let diagnostic = Diagnostic::error(error.message, span);
    match error.help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

fn binary_op_of(op: BinOp) -> Option<BinaryOp> {
    Some(match op {
        BinOp::Add => BinaryOp::Add,
        BinOp::Sub => BinaryOp::Subtract,
        BinOp::Mul => BinaryOp::Multiply,
        BinOp::Div => BinaryOp::Divide,
        BinOp::FloorDiv => BinaryOp::FloorDivide,
        BinOp::Mod => BinaryOp::Remainder,
        BinOp::Pow => BinaryOp::Power,
        BinOp::BitAnd => BinaryOp::BitwiseAnd,
        BinOp::BitOr => BinaryOp::BitwiseOr,
        BinOp::BitXor => BinaryOp::BitwiseXor,
        BinOp::MatMul => return None,
    })
}

fn compare_op_of(op: CmpOp) -> BinaryOp {
    match op {
        CmpOp::Lt => BinaryOp::Less,
        CmpOp::Le => BinaryOp::LessEqual,
        CmpOp::Gt => BinaryOp::Greater,
        CmpOp::Ge => BinaryOp::GreaterEqual,
        CmpOp::Eq => BinaryOp::Equal,
        CmpOp::Ne => BinaryOp::NotEqual,
        CmpOp::In | CmpOp::NotIn | CmpOp::Is | CmpOp::IsNot => {
            unreachable!("`Lowerer::compare_operator` decides `in` and `is` itself")
        }
    }
}

impl Lowerer<'_> {
    pub(super) fn tensor_unary_operator(
        &mut self,
        op: ast::UnaryOp,
        input: TileableId,
        op_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let op = match op {
            ast::UnaryOp::Neg => UnaryOp::Negative,
            ast::UnaryOp::Pos => UnaryOp::Positive,
            ast::UnaryOp::Invert => UnaryOp::Invert,
        };
        self.unary(op, input, op_span, span)
    }

    /// An element-wise function of one tensor; errors point at `error_span`.
    pub(super) fn unary(
        &mut self,
        op: UnaryOp,
        input: TileableId,
        error_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let dtype = self.dtype(input);
        let result = op
            .result_dtype(dtype)
            .map_err(|e| dtype_rule_error(op.name(), dtype, e, error_span))?;
        let shape = self.shape(input).to_vec();
        let id = self.add_derived(
            TileOp::Elementwise(ElementwiseOp::Unary(op)),
            vec![input],
            shape,
            result,
            span,
        )?;
        Ok(Value::Tensor(id))
    }

    pub(super) fn tensor_binary_operator(
        &mut self,
        op: BinOp,
        op_span: Span,
        lhs: (Value, Span),
        rhs: (Value, Span),
    ) -> LowerResult<Value> {
        let span = lhs.1.to(rhs.1);
        let a = Arg {
            value: lhs.0,
            span: lhs.1,
        };
        let b = Arg {
            value: rhs.0,
            span: rhs.1,
        };
        if let (BinOp::Pow, Value::Tensor(id), Value::Int(2)) = (op, &a.value, &b.value) {
            if self.dtype(*id) == DType::Bool {
                // NumPy computes `array ** 2` with `square`, which gives int8 for bools
                // (while `power(bools, 2)` gives int64).
                return self.unary(UnaryOp::Square, *id, span, span);
            }
        }
        if let (BinOp::Pow, Value::Tensor(id)) = (op, &a.value) {
            // NumPy's `array ** scalar` computes `** 2`, `** -1` (Python ints) and
            // `** 0.5` as `square`, `reciprocal` and `sqrt`, whose complex loops
            // round differently from `power`'s.
            let fast = match b.value {
                Value::Int(2) => Some(UnaryOp::Square),
                Value::Int(-1) => Some(UnaryOp::Reciprocal),
                Value::Float(0.5) => Some(UnaryOp::Sqrt),
                _ => None,
            };
            if let (true, Some(unary)) = (self.dtype(*id).is_complex(), fast) {
                return self.unary(unary, *id, span, span);
            }
        }
        match binary_op_of(op) {
            Some(binary) => self.binary(binary, &a, &b, op_span, span),
            None => self.matmul(&a, &b, op_span, span),
        }
    }

    pub(super) fn tensor_compare_operator(
        &mut self,
        op: CmpOp,
        op_span: Span,
        lhs: (Value, Span),
        rhs: (Value, Span),
    ) -> LowerResult<Value> {
        let span = lhs.1.to(rhs.1);
        let a = Arg {
            value: lhs.0,
            span: lhs.1,
        };
        let b = Arg {
            value: rhs.0,
            span: rhs.1,
        };
        self.binary(compare_op_of(op), &a, &b, op_span, span)
    }

    /// A value usable as an element-wise operand: tensors and Python scalars as
    /// they are, literal lists as tensors (which are strongly typed, as in NumPy).
    fn elementwise_operand(&mut self, arg: &Arg, error_span: Span) -> LowerResult<Value> {
        match &arg.value {
            Value::Tensor(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Complex(..)
            | Value::Bool(_) => Ok(arg.value.clone()),
            Value::Tuple(..) | Value::List(_) => {
                Ok(Value::Tensor(self.literal_tensor(arg, None, None)?))
            }
            other => Err(Diagnostic::error(
                format!(
                    "a tensor operation cannot take {} operand",
                    other.a_type_name()
                ),
                error_span,
            )
            .with_secondary(arg.span, format!("this is {}", other.a_type_name()))),
        }
    }

    /// A tensor of `dtype` for an already-promoted operand.
    fn operand_tensor(
        &mut self,
        value: &Value,
        dtype: DType,
        span: Span,
    ) -> LowerResult<TileableId> {
        match value {
            Value::Tensor(id) => Ok(*id),
            scalar => {
                let scalar = python_scalar(scalar, Some(dtype), span)?;
                Ok(self.scalar_tensor(scalar, span))
            }
        }
    }

    fn operand_shape(&self, value: &Value) -> Vec<usize> {
        match value {
            Value::Tensor(id) => self.shape(*id).to_vec(),
            _ => vec![],
        }
    }

    /// Broadcasts operand shapes, or an error at `error_span` labelling each operand's shape.
    fn broadcast(&self, operands: &[(&Value, Span)], error_span: Span) -> LowerResult<Vec<usize>> {
        let shapes: Vec<Vec<usize>> = operands
            .iter()
            .map(|(v, _)| self.operand_shape(v))
            .collect();
        let refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        broadcast_shapes(&refs).map_err(|e| {
            let mut diagnostic = at(e, error_span);
            for ((_, span), shape) in operands.iter().zip(&shapes) {
                diagnostic =
                    diagnostic.with_secondary(*span, format!("shape {}", shape_text(shape)));
            }
            diagnostic
        })
    }

    /// An element-wise function of two operands; errors point at `error_span`.
    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        a: &Arg,
        b: &Arg,
        error_span: Span,
        span: Span,
    ) -> LowerResult<Value> {
        let a_value = self.elementwise_operand(a, error_span)?;
        let b_value = self.elementwise_operand(b, error_span)?;
        let operands: Vec<Operand> = [&a_value, &b_value]
            .iter()
            .filter_map(|v| self.operand(v))
            .collect();
        let common = match result_type(&operands) {
            Ok(common) => common,
            // The only promotion error is a Python int out of an integer tensor's
            // range. NumPy 2 still compares such an int exactly: the int is an
            // int64 here, and integers that meet in float64 (uint64 and int64) are
            // compared by their exact values (`kernels::binary`).
            Err(_) if is_comparison(op) => operands
                .iter()
                .filter_map(|operand| match operand {
                    Operand::Tensor(dtype) => Some(*dtype),
                    _ => None,
                })
                .fold(DType::Int64, crate::infer::dtypes::promote_types),
            Err(e) => {
                let culprit = match (&a_value, &b_value) {
                    (Value::Int(_), _) => a.span,
                    (_, Value::Int(_)) => b.span,
                    _ => error_span,
                };
                return Err(at(e, culprit));
            }
        };
        let result = op
            .result_dtype(common)
            .map_err(|e| dtype_rule_error(op.name(), common, e, error_span))?;
        if op == BinaryOp::Power && common.is_int() {
            if let Value::Int(exponent) = b_value {
                if exponent < 0 {
                    return Err(Diagnostic::error(
                        "Integers to negative integer powers are not allowed.",
                        b.span,
                    )
                    .with_help("use a float exponent, e.g. `x ** -1.0`"));
                }
            }
        }
        let shape = self.broadcast(&[(&a_value, a.span), (&b_value, b.span)], error_span)?;
        let a_id = self.operand_tensor(&a_value, common, a.span)?;
        let b_id = self.operand_tensor(&b_value, common, b.span)?;
        let id = self.add_derived(
            TileOp::Elementwise(ElementwiseOp::Binary { op, common }),
            vec![a_id, b_id],
            shape,
            result,
            span,
        )?;
        Ok(Value::Tensor(id))
    }

    pub(super) fn unary_function(&mut self, op: UnaryOp, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.get("x"), None, "the argument")?;
        self.unary(op, input, args.call_span, args.call_span)
    }

    pub(super) fn binary_function(&mut self, op: BinaryOp, args: &BoundArgs) -> LowerResult<Value> {
        self.binary(
            op,
            &args.get("x1"),
            &args.get("x2"),
            args.call_span,
            args.call_span,
        )
    }

    /// `where(condition, x, y)`.
    pub(super) fn where_function(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        match (args.given("x"), args.given("y")) {
            (Some(_), Some(_)) => {}
            (None, None) => {
                // `where(condition)` is `nonzero(condition)`.
                return self.selection(super::select::Selection::Nonzero, args);
            }
            _ => {
                return Err(Diagnostic::error(
                    "either both or neither of x and y should be given",
                    span,
                ))
            }
        }
        let condition = self.tensor_of(&args.get("condition"), None, "`condition`")?;
        let x_arg = args.get("x");
        let y_arg = args.get("y");
        let x = self.elementwise_operand(&x_arg, x_arg.span)?;
        let y = self.elementwise_operand(&y_arg, y_arg.span)?;
        let operands: Vec<Operand> = [&x, &y].iter().filter_map(|v| self.operand(v)).collect();
        let dtype = result_type(&operands).map_err(|e| at(e, span))?;
        let condition_value = Value::Tensor(condition);
        let shape = self.broadcast(
            &[
                (&condition_value, args.get("condition").span),
                (&x, x_arg.span),
                (&y, y_arg.span),
            ],
            span,
        )?;
        let condition = self.cast(condition, DType::Bool, span)?;
        let x = self.operand_tensor(&x, dtype, x_arg.span)?;
        let x = self.cast(x, dtype, span)?;
        let y = self.operand_tensor(&y, dtype, y_arg.span)?;
        let y = self.cast(y, dtype, span)?;
        let where_ = TileOp::Elementwise(ElementwiseOp::Where);
        let id = self.add_derived(where_, vec![condition, x, y], shape, dtype, span)?;
        Ok(Value::Tensor(id))
    }

    /// `clip(a, a_min, a_max)` / `x.clip(min, max)`: `maximum` with the lower bound,
    /// then `minimum` with the upper one; a `None` bound is skipped.
    pub(super) fn clip(&mut self, args: &BoundArgs, as_method: bool) -> LowerResult<Value> {
        let span = args.call_span;
        let (lower, upper) = if as_method {
            (args.get("min"), args.get("max"))
        } else {
            let lower = pick_bound(args, "a_min", "min")?;
            let upper = pick_bound(args, "a_max", "max")?;
            (lower, upper)
        };
        let receiver = if as_method {
            args.receiver()
        } else {
            args.get("a")
        };
        let mut result = Arg {
            value: Value::Tensor(self.tensor_of(&receiver, None, "`a`")?),
            span: receiver.span,
        };
        let dtype = self.operand_dtype(&result.value);
        for (op, bound) in [(BinaryOp::Maximum, lower), (BinaryOp::Minimum, upper)] {
            if bound.value != Value::None && !is_no_op_bound(op, &bound.value, dtype) {
                result.value = self.binary(op, &result, &bound, bound.span, span)?;
            }
        }
        Ok(result.value)
    }

    fn operand_dtype(&self, value: &Value) -> Option<DType> {
        match value {
            Value::Tensor(id) => Some(self.dtype(*id)),
            _ => None,
        }
    }

    /// `x.astype(dtype)`.
    pub(super) fn astype(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let input = self.tensor_of(&args.receiver(), None, "the receiver")?;
        let dtype_arg_value = args.get("dtype");
        let dtype = dtype_arg(&dtype_arg_value)?.ok_or_else(|| {
            Diagnostic::error("`dtype` must be a dtype, got None", dtype_arg_value.span)
        })?;
        layout_order_arg(&args.get("order"))?;
        let casting_given = args.get("casting");
        let casting = casting_arg(&casting_given)?;
        let from = self.dtype(input);
        if casting_given.value == Value::str("same_value") && !can_cast(from, dtype, casting) {
            return Err(Diagnostic::error(
                format!("not supported yet: `casting='same_value'` from {from} to {dtype} (a cast checked value by value at run time)"),
                casting_given.span,
            ));
        }
        check_cast(from, dtype, casting, args.call_span)?;
        Ok(Value::Tensor(self.cast(input, dtype, args.call_span)?))
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(
        op,
        Equal | NotEqual | Less | LessEqual | Greater | GreaterEqual
    )
}

/// NumPy's `clip` drops a Python int bound of an integer tensor that lies beyond
/// its dtype's range on the side where it clips nothing (`clip(int32_x, 0, 2**40)`),
/// instead of failing to convert it.
fn is_no_op_bound(op: BinaryOp, bound: &Value, dtype: Option<DType>) -> bool {
    let (Value::Int(bound), Some(DType::Int32)) = (bound, dtype) else {
        return false;
    };
    match op {
        BinaryOp::Maximum => *bound <= i64::from(i32::MIN),
        _ => *bound >= i64::from(i32::MAX),
    }
}

/// A `clip` bound given as `a_min` or as `min` (not both).
fn pick_bound(args: &BoundArgs, positional: &str, keyword: &str) -> LowerResult<Arg> {
    match (args.given(positional), args.given(keyword)) {
        (Some(a), Some(b)) if a.value != Value::None && b.value != Value::None => {
            Err(Diagnostic::error(
                format!("`clip()` got both `{positional}` and `{keyword}`"),
                b.span,
            )
            .with_help("they are the same bound; give one"))
        }
        (Some(a), _) if a.value != Value::None => Ok(a.clone()),
        _ => Ok(args.get(keyword)),
    }
}
