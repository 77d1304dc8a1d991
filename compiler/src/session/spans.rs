//! Moves an input's AST into the session's text. Each input is parsed on its own (so
//! a session never re-parses what it accepted), which gives spans into the input;
//! lowering, the graph and run-time errors use spans into the session's whole text
//! (every accepted input, then this one), so the spans are shifted by where the
//! input starts.

use marsc_grammar::ast::{
    Arg, Expr, ExprKind, Ident, Module, Stmt, StmtKind, SubscriptItem, Target,
};
use marsc_grammar::Span;

/// Adds `by` to every span of `module`.
pub fn shift_module(module: &mut Module, by: u32) {
    shift_block(&mut module.stmts, by);
}

fn shift_block(stmts: &mut [Stmt], by: u32) {
    for stmt in stmts {
        shift(&mut stmt.span, by);
        match &mut stmt.kind {
            StmtKind::Import { module, alias } => {
                module.iter_mut().for_each(|ident| shift_ident(ident, by));
                if let Some(alias) = alias {
                    shift_ident(alias, by);
                }
            }
            StmtKind::Assign { target, value } => {
                shift_ident(target, by);
                shift_expr(value, by);
            }
            StmtKind::AugAssign {
                target,
                op: _,
                op_span,
                value,
            } => {
                shift_ident(target, by);
                shift(op_span, by);
                shift_expr(value, by);
            }
            StmtKind::SetItem { target, op, value } => {
                shift_expr(target, by);
                if let Some((_, op_span)) = op {
                    shift(op_span, by);
                }
                shift_expr(value, by);
            }
            StmtKind::Expr(expr) => shift_expr(expr, by),
            StmtKind::Unpack { target, value } => {
                shift_target(target, by);
                shift_expr(value, by);
            }
            StmtKind::If { branches, orelse } => {
                for branch in branches {
                    shift_expr(&mut branch.test, by);
                    shift_block(&mut branch.body, by);
                }
                if let Some(orelse) = orelse {
                    shift_block(orelse, by);
                }
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => {
                shift_target(target, by);
                shift_expr(iter, by);
                shift_block(body, by);
                if let Some(orelse) = orelse {
                    shift_block(orelse, by);
                }
            }
            StmtKind::While { test, body, orelse } => {
                shift_expr(test, by);
                shift_block(body, by);
                if let Some(orelse) = orelse {
                    shift_block(orelse, by);
                }
            }
            StmtKind::Def(def) => {
                shift_ident(&mut def.name, by);
                shift(&mut def.header, by);
                for param in &mut def.params {
                    shift_ident(&mut param.name, by);
                    if let Some(default) = &mut param.default {
                        shift_expr(default, by);
                    }
                }
                shift_block(&mut def.body, by);
            }
            StmtKind::Return(value) => {
                if let Some(value) = value {
                    shift_expr(value, by);
                }
            }
            StmtKind::Assert { test, message } => {
                shift_expr(test, by);
                if let Some(message) = message {
                    shift_expr(message, by);
                }
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Pass => {}
        }
    }
}

fn shift_target(target: &mut Target, by: u32) {
    match target {
        Target::Name(ident) => shift_ident(ident, by),
        Target::Unpack { items, span } => {
            shift(span, by);
            for item in items {
                shift_target(item, by);
            }
        }
    }
}

fn shift(span: &mut Span, by: u32) {
    span.start += by;
    span.end += by;
}

fn shift_ident(ident: &mut Ident, by: u32) {
    shift(&mut ident.span, by);
}

fn shift_expr(expr: &mut Expr, by: u32) {
    shift(&mut expr.span, by);
    match &mut expr.kind {
        ExprKind::Name(_)
        | ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Imaginary(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Str(_)
        | ExprKind::Ellipsis
        | ExprKind::Error => {}
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            items.iter_mut().for_each(|item| shift_expr(item, by));
        }
        ExprKind::FString(pieces) => {
            for piece in pieces {
                if let marsc_grammar::ast::FPiece::Field { expr, .. } = piece {
                    shift_expr(expr, by);
                }
            }
        }
        ExprKind::Attribute { value, attr } => {
            shift_expr(value, by);
            shift_ident(attr, by);
        }
        ExprKind::Call { func, args } => {
            shift_expr(func, by);
            args.iter_mut().for_each(|arg| shift_arg(arg, by));
        }
        ExprKind::Subscript { value, items } => {
            shift_expr(value, by);
            for item in items {
                match item {
                    SubscriptItem::Expr(expr) => shift_expr(expr, by),
                    SubscriptItem::Slice {
                        lower,
                        upper,
                        step,
                        span,
                    } => {
                        for part in [lower, upper, step].into_iter().flatten() {
                            shift_expr(part, by);
                        }
                        shift(span, by);
                    }
                }
            }
        }
        ExprKind::Unary {
            op: _,
            op_span,
            operand,
        }
        | ExprKind::Not { op_span, operand } => {
            shift(op_span, by);
            shift_expr(operand, by);
        }
        ExprKind::ListComp {
            element,
            generators,
        } => {
            shift_expr(element, by);
            for generator in generators {
                shift_target(&mut generator.target, by);
                shift_expr(&mut generator.iter, by);
                generator.ifs.iter_mut().for_each(|c| shift_expr(c, by));
            }
        }
        ExprKind::IfExp { test, body, orelse } => {
            shift_expr(test, by);
            shift_expr(body, by);
            shift_expr(orelse, by);
        }
        ExprKind::CompareChain { first, links } => {
            shift_expr(first, by);
            for link in links {
                shift(&mut link.op_span, by);
                shift_expr(&mut link.rhs, by);
            }
        }
        ExprKind::Binary {
            op_span, lhs, rhs, ..
        }
        | ExprKind::Compare {
            op_span, lhs, rhs, ..
        }
        | ExprKind::BoolOp {
            op_span, lhs, rhs, ..
        } => {
            shift(op_span, by);
            shift_expr(lhs, by);
            shift_expr(rhs, by);
        }
    }
}

fn shift_arg(arg: &mut Arg, by: u32) {
    shift(&mut arg.span, by);
    if let Some(name) = &mut arg.name {
        shift_ident(name, by);
    }
    shift_expr(&mut arg.value, by);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parsing an input alone and shifting it gives the AST of the same input parsed
    /// after the earlier text: every span, of every kind of node.
    #[test]
    fn shifted_spans_equal_the_whole_texts() {
        let before = "import mars.tensor as mt\nx = mt.ones((3, 4), chunks=2)\n";
        let input = "y = x[1:, ::2, None, ...] + -x.sum(axis=0) ** 2 @ x.T\n\
                     z = (x < 1, [not True and False or y], 'a', 1.5, x[0])\n\
                     y += mt.where(x > 0, x, 0)\nprint(y, sep='')\n";
        let (mut alone, diagnostics) = marsc_grammar::parse(input);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        shift_module(&mut alone, before.len() as u32);
        let (whole, diagnostics) = marsc_grammar::parse(&format!("{before}{input}"));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(alone.stmts[..], whole.stmts[2..]);
    }
}
