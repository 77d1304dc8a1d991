//! Expression evaluation: literals, names, tuples and lists, operators (folded on
//! Python values, graph nodes on tensors), `and`/`or`/`not`, calls, attributes and
//! subscripts. Statements and imports are here too, being only name binding.

use super::control::Found;
use super::fold::{fold_binary, fold_compare, fold_unary, truthy};
use super::names::{builtin_names, builtin_value, closest, module_value};
use super::not_yet::{not_yet_builtin, not_yet_in_library};
use super::objects::Binding;
use super::value::Value;
use super::Lowerer;
use marsc_grammar::ast::{BinOp, BoolOp, ChainLink, CmpOp, Expr, ExprKind, Ident, UnaryOp};
use marsc_grammar::{Diagnostic, Span};

impl Lowerer<'_> {
    pub(super) fn eval(&mut self, expr: &Expr) -> Value {
        match &expr.kind {
            ExprKind::Name(_)
            | ExprKind::Attribute { .. }
            | ExprKind::Call { .. }
            | ExprKind::Subscript { .. }
            | ExprKind::IfExp { .. }
            | ExprKind::ListComp { .. } => self.eval_origin(expr).0,
            ExprKind::Int(v) => Value::Int(*v),
            ExprKind::Float(v) => Value::Float(*v),
            ExprKind::Imaginary(v) => Value::Complex(0.0, *v),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::None => Value::None,
            ExprKind::Str(text) => Value::str(text),
            ExprKind::FString(pieces) => self.fstring(pieces),
            ExprKind::Ellipsis => Value::Ellipsis,
            ExprKind::Tuple(items) => self.sequence(items, false),
            ExprKind::List(items) => self.sequence(items, true),
            ExprKind::Unary {
                op,
                op_span,
                operand,
            } => {
                let value = self.eval(operand);
                self.unary_operator(*op, *op_span, value, expr.span)
            }
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let a = self.eval(lhs);
                let b = self.eval(rhs);
                self.binary_operator(*op, *op_span, (a, lhs.span), (b, rhs.span))
            }
            ExprKind::Compare {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let a = self.eval(lhs);
                let b = self.eval(rhs);
                self.compare_operator(*op, *op_span, (a, lhs.span), (b, rhs.span))
            }
            ExprKind::CompareChain { first, links } => self.compare_chain(first, links),
            ExprKind::BoolOp {
                op,
                op_span,
                lhs,
                rhs,
            } => self.bool_operator(*op, *op_span, lhs, rhs),
            ExprKind::Not { operand, .. } => {
                let value = self.eval(operand);
                match self.truth(&value, operand.span).map_err(logic_help) {
                    Ok(Some(t)) => Value::Bool(!t),
                    Ok(None) => Value::Poison,
                    Err(diagnostic) => self.report(diagnostic),
                }
            }
            // The parser already reported the syntax error here.
            ExprKind::Error => Value::Poison,
        }
    }

    fn sequence(&mut self, items: &[Expr], is_list: bool) -> Value {
        let values = items.iter().map(|item| self.eval(item)).collect();
        Value::sequence(values, is_list)
    }

    /// The value bound to `name`: the script's own names first, then builtins and
    /// the library.
    pub(super) fn lookup(&mut self, name: &str, span: Span) -> Value {
        match self.find_name(name) {
            Found::Bound(binding) => return self.resolve(&binding, span),
            Found::UnboundLocal => {
                return self.report(
                    Diagnostic::error(
                        format!("local variable `{name}` referenced before assignment"),
                        span,
                    )
                    .with_label("no value yet")
                    .with_note(format!(
                    "the function assigns `{name}`, which makes it local throughout the function"
                )),
                )
            }
            Found::Missing => {}
        }
        if let Some(value) = builtin_value(name) {
            return value;
        }
        if let Some(message) = not_yet_builtin(name).or_else(|| not_yet_in_library(name, "")) {
            return self.report(Diagnostic::error(message, span));
        }
        let mut diagnostic = Diagnostic::error(format!("cannot find `{name}` in this scope"), span)
            .with_label("not found");
        let mut candidates: Vec<&str> = self.scope.keys().map(String::as_str).collect();
        for builtin in builtin_names() {
            candidates.push(builtin);
        }
        let suggestion = closest(name, candidates.into_iter()).map(str::to_string);
        if let Some(suggestion) = suggestion {
            diagnostic = diagnostic.with_help(format!("did you mean `{suggestion}`?"));
        }
        self.report(diagnostic)
    }

    pub(super) fn import(&mut self, module: &[Ident], alias: Option<&Ident>) {
        let path: Vec<&str> = module.iter().map(|part| part.name.as_str()).collect();
        let Some(namespace) = module_value(&path) else {
            let span = match (module.first(), module.last()) {
                (Some(first), Some(last)) => first.span.to(last.span),
                _ => Span::default(),
            };
            self.report(
                Diagnostic::error(format!("no module named `{}`", path.join(".")), span)
                    .with_help("the modules are `mars.tensor` and `numpy` (and their `random`)"),
            );
            if let Some(alias) = alias {
                self.scope
                    .insert(alias.name.clone(), Binding::Plain(Value::Poison));
            }
            return;
        };
        match alias {
            Some(alias) => {
                self.scope.insert(
                    alias.name.clone(),
                    Binding::Plain(Value::Namespace(namespace)),
                );
            }
            None => {
                // `import mars.tensor` binds `mars`, as in Python.
                let top = module_value(&path[..1]).expect("parents of known modules are known");
                self.scope
                    .insert(path[0].to_string(), Binding::Plain(Value::Namespace(top)));
            }
        }
    }

    pub(super) fn unary_operator(
        &mut self,
        op: UnaryOp,
        op_span: Span,
        value: Value,
        span: Span,
    ) -> Value {
        match value {
            Value::Poison => Value::Poison,
            Value::Tensor(id) => {
                let result = self.tensor_unary_operator(op, id, op_span, span);
                self.value_or_report(result)
            }
            other => match fold_unary(op, &other) {
                Ok(value) => value,
                Err(error) => self.report(error.at(op_span)),
            },
        }
    }

    pub(super) fn binary_operator(
        &mut self,
        op: BinOp,
        op_span: Span,
        lhs: (Value, Span),
        rhs: (Value, Span),
    ) -> Value {
        if lhs.0.is_poison() || rhs.0.is_poison() {
            return Value::Poison;
        }
        if self.is_tensor_operand(&lhs.0, &rhs.0) {
            let result = self.tensor_binary_operator(op, op_span, lhs, rhs);
            return self.value_or_report(result);
        }
        match fold_binary(op, &lhs.0, &rhs.0) {
            Ok(value) => value,
            Err(error) => self.report(error.at(op_span)),
        }
    }

    fn compare_operator(
        &mut self,
        op: CmpOp,
        op_span: Span,
        lhs: (Value, Span),
        rhs: (Value, Span),
    ) -> Value {
        if lhs.0.is_poison() || rhs.0.is_poison() {
            return Value::Poison;
        }
        if matches!(op, CmpOp::Is | CmpOp::IsNot) {
            return match fold_compare(op, &lhs.0, &rhs.0) {
                Ok(value) => value,
                Err(error) => self.report(error.at(op_span)),
            };
        }
        if matches!(op, CmpOp::In | CmpOp::NotIn) && matches!(rhs.0, Value::Tensor(_)) {
            // `v in t` is `(t == v).any()`, as NumPy defines it: its truth in a stage.
            let span = lhs.1.to(rhs.1);
            let contains = self
                .tensor_compare_operator(CmpOp::Eq, op_span, rhs, lhs)
                .and_then(|equal| self.library_call("any", vec![equal], span));
            let found = match contains {
                Ok(Value::Tensor(id)) => self.staged_scalar(id, span).and_then(|v| truthy(&v)),
                Ok(_) => None,
                Err(diagnostic) => return self.report(diagnostic),
            };
            return match found {
                Some(found) => Value::Bool(found == (op == CmpOp::In)),
                None => Value::Poison,
            };
        }
        if matches!(op, CmpOp::In | CmpOp::NotIn) && matches!(lhs.0, Value::Tensor(_)) {
            return self.report(
                Diagnostic::error(
                    format!("not supported yet: `{}` with a tensor", op.symbol()),
                    op_span,
                )
                .with_label("a tensor on the left of `in`")
                .with_help("compare explicitly: `(t == v).all()` for each item `v`"),
            );
        }
        if self.is_tensor_operand(&lhs.0, &rhs.0) {
            let result = self.tensor_compare_operator(op, op_span, lhs, rhs);
            return self.value_or_report(result);
        }
        match fold_compare(op, &lhs.0, &rhs.0) {
            Ok(value) => value,
            Err(error) => self.report(error.at(op_span)),
        }
    }

    /// True when an operator on these operands is element-wise over tensors: one is a
    /// tensor, and the other a tensor, Python scalar or literal list.
    fn is_tensor_operand(&self, a: &Value, b: &Value) -> bool {
        matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_))
    }

    /// `a and b` / `a or b` with Python's short-circuit: the right side is not
    /// evaluated when the left decides.
    fn bool_operator(&mut self, op: BoolOp, op_span: Span, lhs: &Expr, rhs: &Expr) -> Value {
        let keyword = match op {
            BoolOp::And => "and",
            BoolOp::Or => "or",
        };
        let left = self.eval(lhs);
        let decided = match self.truth(&left, lhs.span).map_err(logic_help) {
            Ok(Some(t)) => t == (op == BoolOp::Or),
            Ok(None) => return Value::Poison,
            Err(diagnostic) => {
                let diagnostic =
                    diagnostic.with_secondary(op_span, format!("`{keyword}` needs its truth"));
                return self.report(diagnostic);
            }
        };
        if decided {
            return left;
        }
        // Python returns the right operand itself, a tensor too.
        self.eval(rhs)
    }
}

impl Lowerer<'_> {
    /// `a < b <= c` as Python runs it: `a < b and b <= c`, each operand evaluated
    /// once and only while the comparisons so far are true; the value is the first
    /// false comparison's, else the last's. A comparison of tensors of more than one
    /// element has no truth (NumPy's error).
    fn compare_chain(&mut self, first: &Expr, links: &[ChainLink]) -> Value {
        let mut lhs = (self.eval(first), first.span);
        let mut result = Value::Poison;
        for (index, link) in links.iter().enumerate() {
            let rhs = (self.eval(&link.rhs), link.rhs.span);
            let span = lhs.1.to(rhs.1);
            result = self.compare_operator(link.op, link.op_span, lhs, rhs.clone());
            if index + 1 == links.len() {
                break;
            }
            match self.truth(&result, span) {
                Ok(Some(true)) => {}
                Ok(Some(false)) => break,
                Ok(None) => return Value::Poison,
                Err(diagnostic) => {
                    let diagnostic = diagnostic
                        .with_secondary(
                            link.op_span,
                            "a chained comparison needs this comparison's truth",
                        )
                        .with_help(
                            "`a < b < c` is `(a < b) and (b < c)`; for element-wise results \
                             write `(a < b) & (b < c)`",
                        );
                    return self.report(diagnostic);
                }
            }
            lhs = rhs;
        }
        result
    }
}

/// NumPy's truth error, with what to write instead for element-wise logic.
fn logic_help(error: Diagnostic) -> Diagnostic {
    error.with_help("use `&`, `|`, `~` for element-wise logic, `.any()` or `.all()` for one truth")
}
