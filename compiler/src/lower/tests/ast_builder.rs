//! Terse constructors for hand-built ASTs, for tests that must not depend on the
//! parser (and for spans chosen exactly).

use marsc_grammar::ast::{
    Arg, BinOp, Expr, ExprKind, Ident, Module, Stmt, StmtKind, SubscriptItem,
};
use marsc_grammar::Span;

pub fn at(mut expr: Expr, start: usize, end: usize) -> Expr {
    expr.span = Span::new(start, end);
    expr
}

fn expr(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

pub fn name(text: &str) -> Expr {
    expr(ExprKind::Name(text.to_string()))
}

pub fn int(value: i64) -> Expr {
    expr(ExprKind::Int(value))
}

pub fn float(value: f64) -> Expr {
    expr(ExprKind::Float(value))
}

pub fn string(text: &str) -> Expr {
    expr(ExprKind::Str(text.to_string()))
}

pub fn tuple(items: Vec<Expr>) -> Expr {
    expr(ExprKind::Tuple(items))
}

pub fn list(items: Vec<Expr>) -> Expr {
    expr(ExprKind::List(items))
}

pub fn ident(text: &str) -> Ident {
    Ident {
        name: text.to_string(),
        span: Span::default(),
    }
}

pub fn attr(value: Expr, attribute: &str) -> Expr {
    expr(ExprKind::Attribute {
        value: Box::new(value),
        attr: ident(attribute),
    })
}

/// `mt.a.b(...)` style: a dotted path of names.
pub fn path(dotted: &str) -> Expr {
    let mut parts = dotted.split('.');
    let first = name(parts.next().unwrap_or_default());
    parts.fold(first, attr)
}

pub fn positional(value: Expr) -> Arg {
    Arg {
        name: None,
        span: value.span,
        value,
    }
}

pub fn keyword(key: &str, value: Expr) -> Arg {
    Arg {
        name: Some(ident(key)),
        span: value.span,
        value,
    }
}

pub fn call(func: Expr, args: Vec<Arg>) -> Expr {
    expr(ExprKind::Call {
        func: Box::new(func),
        args,
    })
}

pub fn binary(op: BinOp, lhs: Expr, rhs: Expr, op_span: Span) -> Expr {
    expr(ExprKind::Binary {
        op,
        op_span,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    })
}

pub fn index(value: Expr, items: Vec<SubscriptItem>) -> Expr {
    expr(ExprKind::Subscript {
        value: Box::new(value),
        items,
    })
}

pub fn assign(target: &str, value: Expr) -> Stmt {
    Stmt {
        kind: StmtKind::Assign {
            target: ident(target),
            value,
        },
        span: Span::default(),
    }
}

pub fn statement(value: Expr) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(value),
        span: Span::default(),
    }
}

pub fn import(module: &str, alias: Option<&str>) -> Stmt {
    Stmt {
        kind: StmtKind::Import {
            module: module.split('.').map(ident).collect(),
            alias: alias.map(ident),
        },
        span: Span::default(),
    }
}

pub fn module(stmts: Vec<Stmt>) -> Module {
    Module {
        stmts,
        ..Module::default()
    }
}
