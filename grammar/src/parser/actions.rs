//! Where the grammar's actions put their results ([`Sink`]), and the statement
//! actions: assignment targets (names, and tuples or lists of targets to unpack
//! into; chained assignment and assignment to an element are rejected), and the
//! compound statements, which take their bodies back out of the sink.

use std::convert::Infallible;

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::{
    BinOp, Branch, Expr, ExprKind, FunctionDef, Ident, Param, Stmt, StmtKind, Target,
};
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::parser::expressions::{Node, MAX_DEPTH};
use crate::span::Span;

/// A syntax error lalrpop recovered from, still to be turned into a diagnostic.
pub(crate) type SyntaxError<'src> = ParseError<usize, Token<'src>, Infallible>;

/// Where the parser's actions put what they produce.
pub(crate) struct Sink<'src> {
    pub statements: Vec<Stmt>,
    /// Diagnostics raised by actions, for input that parsed but is not allowed.
    pub diagnostics: Vec<Diagnostic>,
    pub recovered: Vec<SyntaxError<'src>>,
    /// Names that rejected statements would have bound in Python.
    pub unsupported_bindings: Vec<Ident>,
    /// The last expression cut off for depth, so that its enclosing expressions,
    /// also too deep, are not reported again.
    too_deep: Option<Span>,
}

impl<'src> Sink<'src> {
    pub fn new() -> Sink<'src> {
        Sink {
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
}

/// An expression statement, `name = value`, `a, b = value`, or a rejected chained
/// assignment.
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
        1 if matches!(first.expr.kind, ExprKind::Subscript { .. }) => {
            Some(set_item(first.expr, None, values.remove(0).expr, span))
        }
        1 => {
            let target = target(sink, first.expr, "=")?;
            let value = values.remove(0).expr;
            let kind = match target {
                Target::Name(target) => StmtKind::Assign { target, value },
                target => StmtKind::Unpack { target, value },
            };
            Some(Stmt { kind, span })
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

/// The target of a comprehension's `for`.
pub(crate) fn comprehension_target(sink: &mut Sink<'_>, expr: Expr) -> Option<Target> {
    target(sink, expr, "for")
}

/// An assignment or `for` target: a name, or a tuple or list of targets.
fn target(sink: &mut Sink<'_>, expr: Expr, operator: &str) -> Option<Target> {
    match expr.kind {
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            let span = expr.span;
            let mut targets = Vec::with_capacity(items.len());
            let mut failed = false;
            for item in items {
                match target(sink, item, operator) {
                    Some(target) => targets.push(target),
                    None => failed = true,
                }
            }
            if failed {
                return None;
            }
            Some(Target::Unpack {
                items: targets,
                span,
            })
        }
        _ => assignment_target(sink, expr, operator).map(Target::Name),
    }
}

pub(crate) fn augmented_assignment(
    sink: &mut Sink<'_>,
    target: Node,
    op: (BinOp, Span),
    value: Node,
    span: Span,
) -> Option<Stmt> {
    if matches!(target.expr.kind, ExprKind::Subscript { .. }) {
        return Some(set_item(target.expr, Some(op), value.expr, span));
    }
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

/// `target = value` or `target OP= value` through a subscript `target`.
fn set_item(target: Expr, op: Option<(BinOp, Span)>, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::SetItem { target, op, value },
        span,
    }
}

/// The name assigned to, or a diagnostic saying why `target` cannot be assigned to.
fn assignment_target(sink: &mut Sink<'_>, target: Expr, operator: &str) -> Option<Ident> {
    let span = target.span;
    let (message, label, help) = match target.kind {
        ExprKind::Name(name) => return Some(Ident { name, span }),
        // Already reported where the placeholder was made.
        ExprKind::Error => return None,
        // A whole assignment's subscript target is a `SetItem`; this is one inside
        // an unpacking or a `for` target.
        ExprKind::Subscript { .. } => (
            "not supported yet: assignment to an element or slice inside an unpacking".to_string(),
            "cannot assign to a subscript here",
            "assign each item on its own line: `a[0] = ...`",
        ),
        ExprKind::Attribute { .. } => (
            "assignment to an attribute is not supported".to_string(),
            "cannot assign to an attribute",
            "assign the value to a plain name instead: `name = value`",
        ),
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            collect_target_names(&items, &mut sink.unsupported_bindings);
            (
                "unpacking is not supported with an augmented assignment".to_string(),
                "cannot update several names at once",
                "update each name on its own line: `a += ...` then `b += ...`",
            )
        }
        ExprKind::Call { .. } => (
            "cannot assign to a function call".to_string(),
            "not a name",
            "to compare two values, use `==`",
        ),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Imaginary(_)
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

/// A `def` parameter as parsed: a plain one (with its default), or `*args`,
/// `**kwargs` or a bare `*`, which are rejected.
pub(crate) enum ParamDraft {
    Plain(Ident, Option<Expr>),
    Star(Span),
}

impl Sink<'_> {
    /// The statements pushed since `start`: a block's body.
    fn take_block(&mut self, start: usize) -> Vec<Stmt> {
        self.statements.split_off(start.min(self.statements.len()))
    }
}

/// Where a compound statement ends: after its last body statement, or after its header.
fn block_end(header_end: u32, bodies: &[&[Stmt]]) -> u32 {
    bodies
        .iter()
        .filter_map(|body| body.last())
        .map(|stmt| stmt.span.end)
        .max()
        .unwrap_or(header_end)
        .max(header_end)
}

pub(crate) fn if_statement(
    sink: &mut Sink<'_>,
    start_of_if: usize,
    test: Node,
    start: usize,
    elifs: Vec<(Node, usize)>,
    orelse: Option<usize>,
) {
    let orelse = orelse.map(|start| sink.take_block(start));
    let mut branches = Vec::with_capacity(elifs.len() + 1);
    for (elif_test, elif_start) in elifs.into_iter().rev() {
        let body = sink.take_block(elif_start);
        branches.push(Branch {
            test: elif_test.expr,
            body,
        });
    }
    let body = sink.take_block(start);
    let header_end = test.expr.span.end;
    branches.push(Branch {
        test: test.expr,
        body,
    });
    branches.reverse();
    let mut bodies: Vec<&[Stmt]> = branches.iter().map(|b| b.body.as_slice()).collect();
    bodies.extend(orelse.as_deref());
    let end = block_end(header_end, &bodies);
    sink.push_statement(Some(Stmt {
        kind: StmtKind::If { branches, orelse },
        span: Span::new(start_of_if, end as usize),
    }));
}

pub(crate) fn for_statement(
    sink: &mut Sink<'_>,
    start_of_for: usize,
    target_node: Node,
    iter: Node,
    start: usize,
    orelse: Option<usize>,
) {
    let orelse = orelse.map(|start| sink.take_block(start));
    let body = sink.take_block(start);
    let Some(target) = target(sink, target_node.expr, "for") else {
        return;
    };
    let end = block_end(
        iter.expr.span.end,
        &[&body, orelse.as_deref().unwrap_or(&[])],
    );
    sink.push_statement(Some(Stmt {
        kind: StmtKind::For {
            target,
            iter: iter.expr,
            body,
            orelse,
        },
        span: Span::new(start_of_for, end as usize),
    }));
}

pub(crate) fn while_statement(
    sink: &mut Sink<'_>,
    start_of_while: usize,
    test: Node,
    start: usize,
    orelse: Option<usize>,
) {
    let orelse = orelse.map(|start| sink.take_block(start));
    let body = sink.take_block(start);
    let end = block_end(
        test.expr.span.end,
        &[&body, orelse.as_deref().unwrap_or(&[])],
    );
    sink.push_statement(Some(Stmt {
        kind: StmtKind::While {
            test: test.expr,
            body,
            orelse,
        },
        span: Span::new(start_of_while, end as usize),
    }));
}

pub(crate) fn def_statement(
    sink: &mut Sink<'_>,
    name: Ident,
    drafts: Vec<ParamDraft>,
    header: Span,
    start: usize,
) {
    let body = sink.take_block(start);
    let mut params: Vec<Param> = Vec::with_capacity(drafts.len());
    let mut ok = true;
    for draft in drafts {
        match draft {
            ParamDraft::Plain(name, default) => {
                if params.iter().any(|p| p.name.name == name.name) {
                    sink.report(
                        Diagnostic::error(
                            format!("duplicate parameter `{}` in function definition", name.name),
                            name.span,
                        )
                        .with_label("already a parameter"),
                    );
                    ok = false;
                } else if default.is_none() && params.iter().any(|p| p.default.is_some()) {
                    sink.report(
                        Diagnostic::error(
                            "parameter without a default follows parameter with a default",
                            name.span,
                        )
                        .with_label("needs a default, as the parameters before it have"),
                    );
                    ok = false;
                }
                params.push(Param { name, default });
            }
            ParamDraft::Star(span) => {
                sink.report(
                    Diagnostic::error(
                        "not supported yet: `*args`, `**kwargs` and keyword-only parameters",
                        span,
                    )
                    .with_label("not supported yet")
                    .with_help("list each parameter by name, with a default if it is optional"),
                );
                ok = false;
            }
        }
    }
    if !ok {
        sink.unsupported_bindings.push(name);
        return;
    }
    let end = block_end(header.end, &[&body]);
    sink.push_statement(Some(Stmt {
        kind: StmtKind::Def(Box::new(FunctionDef {
            name,
            params,
            body,
            header,
        })),
        span: Span::new(header.start as usize, end as usize),
    }));
}
