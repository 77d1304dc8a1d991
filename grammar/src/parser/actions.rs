//! The grammar's semantic actions that do more than build a node: they reject
//! constructs Python accepts but version 1 does not (chained comparisons, assignment
//! to anything but a name, misplaced keyword arguments) with targeted diagnostics.

use std::borrow::Cow;
use std::convert::Infallible;

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::{Arg, BinOp, BoolOp, CmpOp, Expr, ExprKind, Ident, Stmt, StmtKind, SubscriptItem};
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
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
}

impl<'src> Sink<'src> {
    pub fn new(source: &'src str) -> Sink<'src> {
        Sink {
            source,
            statements: Vec::new(),
            diagnostics: Vec::new(),
            recovered: Vec::new(),
        }
    }

    pub fn push_statement(&mut self, statement: Option<Stmt>) {
        self.statements.extend(statement);
    }

    pub fn push_recovered(&mut self, recovery: ErrorRecovery<usize, Token<'src>, Infallible>) {
        self.recovered.push(recovery.error);
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn text(&self, span: Span) -> &'src str {
        self.source.get(span.range()).unwrap_or("")
    }
}

pub(crate) fn expr(kind: ExprKind, start: usize, end: usize) -> Expr {
    Expr {
        kind,
        span: Span::new(start, end),
    }
}

fn error_expr(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Error,
        span,
    }
}

/// `(inner)`: the node is `inner` itself, its span widened to cover the parentheses
/// so that later diagnostics underline what the user wrote.
pub(crate) fn parenthesized(mut inner: Expr, start: usize, end: usize) -> Expr {
    inner.span = Span::new(start, end);
    inner
}

pub(crate) fn binary(op: (BinOp, Span), lhs: Expr, rhs: Expr, start: usize, end: usize) -> Expr {
    expr(
        ExprKind::Binary {
            op: op.0,
            op_span: op.1,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        start,
        end,
    )
}

pub(crate) fn bool_op(
    op: BoolOp,
    op_span: Span,
    lhs: Expr,
    rhs: Expr,
    start: usize,
    end: usize,
) -> Expr {
    expr(
        ExprKind::BoolOp {
            op,
            op_span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        start,
        end,
    )
}

/// Adjacent string literals are one string, as in Python: `'a' "b"` is `"ab"`.
pub(crate) fn concatenate(parts: Vec<Cow<'_, str>>) -> String {
    parts.concat()
}

/// `a OP b`, or a rejected chain `a OP b OP c`.
pub(crate) fn comparison(
    sink: &mut Sink<'_>,
    first: Expr,
    mut rest: Vec<((CmpOp, Span), Expr)>,
    span: Span,
) -> Expr {
    if rest.len() == 1 {
        let ((op, op_span), rhs) = rest.remove(0);
        return Expr {
            kind: ExprKind::Compare {
                op,
                op_span,
                lhs: Box::new(first),
                rhs: Box::new(rhs),
            },
            span,
        };
    }
    let help = chain_rewrite(sink, &first, &rest).unwrap_or_else(|| {
        "compare two values at a time and combine the results with `&`, \
         e.g. `(a < b) & (b < c)`"
            .to_string()
    });
    sink.report(
        Diagnostic::error("chained comparisons are not supported", span)
            .with_label(format!("{} comparisons in a chain", rest.len()))
            .with_help(help),
    );
    error_expr(span)
}

/// "write `(a < b) & (b < c)`", built from the user's own operands when short.
fn chain_rewrite(sink: &Sink<'_>, first: &Expr, rest: &[((CmpOp, Span), Expr)]) -> Option<String> {
    let mut pairs = Vec::with_capacity(rest.len());
    let mut lhs = sink.text(first.span);
    for ((op, _), rhs) in rest {
        let rhs_text = sink.text(rhs.span);
        pairs.push(format!("({lhs} {} {rhs_text})", op.symbol()));
        lhs = rhs_text;
    }
    let rewrite = pairs.join(" & ");
    (rewrite.len() <= 60 && !rewrite.contains('\n')).then(|| format!("write `{rewrite}`"))
}

/// An expression statement, `name = value`, or a rejected chained assignment.
pub(crate) fn expression_or_assignment(
    sink: &mut Sink<'_>,
    first: Expr,
    mut values: Vec<Expr>,
    span: Span,
) -> Option<Stmt> {
    match values.len() {
        0 => Some(Stmt {
            kind: StmtKind::Expr(first),
            span,
        }),
        1 => {
            let target = assignment_target(sink, first, "=")?;
            let value = values.remove(0);
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
    target: Expr,
    op: (BinOp, Span),
    value: Expr,
    span: Span,
) -> Option<Stmt> {
    let operator = format!("{}=", op.0.symbol());
    let target = assignment_target(sink, target, &operator)?;
    Some(Stmt {
        kind: StmtKind::AugAssign {
            target,
            op: op.0,
            op_span: op.1,
            value,
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
        ExprKind::Tuple(_) | ExprKind::List(_) => (
            "unpacking assignment is not supported".to_string(),
            "cannot assign to several names at once",
            "assign each name on its own line: `a = ...` then `b = ...`",
        ),
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

/// A call argument as parsed, before its form is checked.
pub(crate) enum ArgDraft {
    Positional(Expr),
    /// `name=value`; `name` is any expression until checked.
    Keyword {
        name: Expr,
        value: Expr,
        span: Span,
    },
}

/// `func(args)`, checking that keywords are names, come last and are not repeated.
pub(crate) fn call(sink: &mut Sink<'_>, func: Expr, drafts: Vec<ArgDraft>, span: Span) -> Expr {
    let mut args: Vec<Arg> = Vec::with_capacity(drafts.len());
    let mut valid = true;
    for draft in drafts {
        match draft {
            ArgDraft::Positional(value) => {
                if let Some(keyword) = args.iter().find(|arg| arg.name.is_some()) {
                    let keyword_span = keyword.span;
                    sink.report(
                        Diagnostic::error(
                            "positional argument follows keyword argument",
                            value.span,
                        )
                        .with_label("positional argument")
                        .with_secondary(keyword_span, "keyword argument")
                        .with_help("put positional arguments before keyword arguments"),
                    );
                    valid = false;
                }
                args.push(Arg {
                    name: None,
                    span: value.span,
                    value,
                });
            }
            ArgDraft::Keyword { name, value, span } => {
                let Some(name) = keyword_name(sink, name) else {
                    valid = false;
                    continue;
                };
                if let Some(earlier) = args
                    .iter()
                    .find(|arg| arg.name.as_ref().is_some_and(|n| n.name == name.name))
                {
                    let earlier_span = earlier.span;
                    sink.report(
                        Diagnostic::error(
                            format!("keyword argument `{}` repeated", name.name),
                            span,
                        )
                        .with_label("repeated here")
                        .with_secondary(earlier_span, "first given here")
                        .with_help("pass each keyword argument once"),
                    );
                    valid = false;
                }
                args.push(Arg {
                    name: Some(name),
                    value,
                    span,
                });
            }
        }
    }
    if !valid {
        return error_expr(span);
    }
    Expr {
        kind: ExprKind::Call {
            func: Box::new(func),
            args,
        },
        span,
    }
}

/// The name before `=` in a call; anything else was most likely meant as `==`.
fn keyword_name(sink: &mut Sink<'_>, name: Expr) -> Option<Ident> {
    match name.kind {
        ExprKind::Name(text) => Some(Ident {
            name: text,
            span: name.span,
        }),
        ExprKind::Error => None,
        _ => {
            sink.report(
                Diagnostic::error("expected a parameter name before `=`", name.span)
                    .with_label("not a name")
                    .with_help("to compare two values, use `==`"),
            );
            None
        }
    }
}

/// `value[items]`; at least one item is required.
pub(crate) fn subscript(
    sink: &mut Sink<'_>,
    value: Expr,
    items: Vec<SubscriptItem>,
    span: Span,
) -> Expr {
    if items.is_empty() {
        sink.report(
            Diagnostic::error("empty subscript", span)
                .with_label("expected an index between `[` and `]`")
                .with_help("write an index such as `a[0]`, a slice such as `a[1:3]`, or `a[...]`"),
        );
        return error_expr(span);
    }
    Expr {
        kind: ExprKind::Subscript {
            value: Box::new(value),
            items,
        },
        span,
    }
}
