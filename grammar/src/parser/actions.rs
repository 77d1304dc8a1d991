//! Where the grammar's actions put their results ([`Sink`]), and the statement
//! actions, which reject what Python accepts but version 1 does not: assignment to
//! anything but a plain name, and chained assignment.

use std::convert::Infallible;

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::{BinOp, Expr, ExprKind, Ident, Stmt, StmtKind};
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::parser::expressions::{Node, MAX_DEPTH};
use crate::span::Span;

/// A syntax error lalrpop recovered from, still to be turned into a diagnostic.
pub(crate) type SyntaxError<'src> = ParseError<usize, Token<'src>, Infallible>;

/// Where the parser's actions put what they produce.
pub(crate) struct Sink<'src> {
    pub source: &'src str,
    pub statements: Vec<Stmt>,
    /// Diagnostics raised by actions, for input that parsed but is not allowed.
    pub diagnostics: Vec<Diagnostic>,
    pub recovered: Vec<SyntaxError<'src>>,
    /// Names of unpacking targets (`a, b = ...`), rejected but bound in Python.
    pub unsupported_bindings: Vec<Ident>,
    /// The last expression cut off for depth, so that its enclosing expressions,
    /// also too deep, are not reported again.
    too_deep: Option<Span>,
}

impl<'src> Sink<'src> {
    pub fn new(source: &'src str) -> Sink<'src> {
        Sink {
            source,
            statements: Vec::new(),
            diagnostics: Vec::new(),
            recovered: Vec::new(),
            unsupported_bindings: Vec::new(),
            too_deep: None,
        }
    }

    pub fn push_statement(&mut self, statement: Option<Stmt>) {
        self.statements.extend(statement);
    }

    pub fn push_recovered(&mut self, recovery: ErrorRecovery<usize, Token<'src>, Infallible>) {
        self.recovered.push(recovery.error);
    }

    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    pub fn report_too_deep(&mut self, span: Span) {
        if self.too_deep.is_some_and(|inner| span.to(inner) == span) {
            return;
        }
        self.too_deep = Some(span);
        self.report(
            Diagnostic::error("expression is nested too deeply", span)
                .with_label(format!("more than {MAX_DEPTH} levels deep"))
                .with_help("split it into several statements with names for the parts"),
        );
    }

    pub fn text(&self, span: Span) -> &'src str {
        self.source.get(span.range()).unwrap_or("")
    }
}

/// An expression statement, `name = value`, or a rejected chained assignment.
pub(crate) fn expression_or_assignment(
    sink: &mut Sink<'_>,
    first: Node,
    mut values: Vec<Node>,
    span: Span,
) -> Option<Stmt> {
    match values.len() {
        0 => Some(Stmt {
            kind: StmtKind::Expr(first.expr),
            span,
        }),
        1 => {
            let target = assignment_target(sink, first.expr, "=")?;
            let value = values.remove(0).expr;
            Some(Stmt {
                kind: StmtKind::Assign { target, value },
                span,
            })
        }
        _ => {
            sink.report(
                Diagnostic::error("chained assignment is not supported", span)
                    .with_label("assigns one value to several names")
                    .with_help("assign one name per statement, e.g. `b = value` then `a = b`"),
            );
            None
        }
    }
}

pub(crate) fn augmented_assignment(
    sink: &mut Sink<'_>,
    target: Node,
    op: (BinOp, Span),
    value: Node,
    span: Span,
) -> Option<Stmt> {
    let operator = format!("{}=", op.0.symbol());
    let target = assignment_target(sink, target.expr, &operator)?;
    Some(Stmt {
        kind: StmtKind::AugAssign {
            target,
            op: op.0,
            op_span: op.1,
            value: value.expr,
        },
        span,
    })
}

/// The name assigned to, or a diagnostic saying why `target` cannot be assigned to.
fn assignment_target(sink: &mut Sink<'_>, target: Expr, operator: &str) -> Option<Ident> {
    let span = target.span;
    let (message, label, help) = match target.kind {
        ExprKind::Name(name) => return Some(Ident { name, span }),
        // Already reported where the placeholder was made.
        ExprKind::Error => return None,
        ExprKind::Subscript { .. } => (
            "assignment to an element or slice is not supported".to_string(),
            "cannot assign to a subscript",
            "tensors cannot be changed in place; build a new one, e.g. `a = mt.where(mask, value, a)`",
        ),
        ExprKind::Attribute { .. } => (
            "assignment to an attribute is not supported".to_string(),
            "cannot assign to an attribute",
            "assign the value to a plain name instead: `name = value`",
        ),
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            collect_target_names(&items, &mut sink.unsupported_bindings);
            (
            "unpacking assignment is not supported".to_string(),
            "cannot assign to several names at once",
            "assign each name on its own line: `a = ...` then `b = ...`",
            )
        }
        ExprKind::Call { .. } => (
            "cannot assign to a function call".to_string(),
            "not a name",
            "to compare two values, use `==`",
        ),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Str(_)
        | ExprKind::Ellipsis => (
            "cannot assign to a literal".to_string(),
            "not a name",
            "the left side of an assignment must be a name",
        ),
        _ => (
            "cannot assign to an expression".to_string(),
            "not a name",
            "the left side of an assignment must be a name; to compare, use `==`",
        ),
    };
    let message = if operator == "=" {
        message
    } else {
        format!("{message} (with `{operator}`)")
    };
    sink.report(
        Diagnostic::error(message, span)
            .with_label(label)
            .with_help(help),
    );
    None
}

/// The plain names inside an unpacking target (`a, (b, c)`), in order.
fn collect_target_names(items: &[Expr], names: &mut Vec<Ident>) {
    for item in items {
        match &item.kind {
            ExprKind::Name(name) => names.push(Ident {
                name: name.clone(),
                span: item.span,
            }),
            ExprKind::Tuple(inner) | ExprKind::List(inner) => collect_target_names(inner, names),
            _ => {}
        }
    }
}
