//! Builds expression nodes for the grammar, tracking each node's depth, and rejects
//! the expressions Python accepts but the language does not (misplaced or repeated
//! keyword arguments, empty subscripts).
//!
//! Why depth: every later stage walks expressions recursively (and dropping a
//! `Box` tree recurses too), so a pathological input such as 100 000 nested
//! parentheses would overflow the stack. No node deeper than [`MAX_DEPTH`] is ever
//! built; the parser reports the expression instead.

use std::borrow::Cow;

use crate::ast::{
    Arg, BinOp, BoolOp, ChainLink, CmpOp, Comprehension, Expr, ExprKind, Ident, SubscriptItem,
    UnaryOp,
};
use crate::diagnostic::Diagnostic;
use crate::parser::actions::Sink;
use crate::span::Span;

/// The deepest expression tree the parser builds. Python itself stops at 200 nested
/// brackets; hand-written scripts never come close to this.
pub(crate) const MAX_DEPTH: u32 = 500;

/// An expression while parsing, with the height of its tree (a leaf is 1).
pub(crate) struct Node {
    pub expr: Expr,
    pub depth: u32,
}

impl Node {
    pub fn leaf(kind: ExprKind, start: usize, end: usize) -> Node {
        Node {
            expr: Expr {
                kind,
                span: Span::new(start, end),
            },
            depth: 1,
        }
    }

    fn error(span: Span) -> Node {
        Node {
            expr: Expr {
                kind: ExprKind::Error,
                span,
            },
            depth: 1,
        }
    }
}

/// A node over children of the given depths, or an error placeholder when it would
/// be too deep.
fn branch(sink: &mut Sink<'_>, kind: ExprKind, span: Span, deepest_child: u32) -> Node {
    let depth = deepest_child + 1;
    if depth > MAX_DEPTH {
        sink.report_too_deep(span);
        return Node::error(span);
    }
    Node {
        expr: Expr { kind, span },
        depth,
    }
}

fn deepest<'a>(nodes: impl IntoIterator<Item = &'a Node>) -> u32 {
    nodes.into_iter().map(|node| node.depth).max().unwrap_or(0)
}

/// `(inner)`: the node is `inner` itself, its span widened to cover the parentheses
/// so that later diagnostics underline what the user wrote.
pub(crate) fn parenthesized(mut inner: Node, span: Span) -> Node {
    inner.expr.span = span;
    inner
}

pub(crate) fn tuple(sink: &mut Sink<'_>, items: Vec<Node>, span: Span) -> Node {
    let depth = deepest(&items);
    let items = items.into_iter().map(|node| node.expr).collect();
    branch(sink, ExprKind::Tuple(items), span, depth)
}

pub(crate) fn list(sink: &mut Sink<'_>, items: Vec<Node>, span: Span) -> Node {
    let depth = deepest(&items);
    let items = items.into_iter().map(|node| node.expr).collect();
    branch(sink, ExprKind::List(items), span, depth)
}

pub(crate) fn binary(
    sink: &mut Sink<'_>,
    (op, op_span): (BinOp, Span),
    lhs: Node,
    rhs: Node,
    span: Span,
) -> Node {
    let depth = lhs.depth.max(rhs.depth);
    let kind = ExprKind::Binary {
        op,
        op_span,
        lhs: Box::new(lhs.expr),
        rhs: Box::new(rhs.expr),
    };
    branch(sink, kind, span, depth)
}

pub(crate) fn bool_op(
    sink: &mut Sink<'_>,
    (op, op_span): (BoolOp, Span),
    lhs: Node,
    rhs: Node,
    span: Span,
) -> Node {
    let depth = lhs.depth.max(rhs.depth);
    let kind = ExprKind::BoolOp {
        op,
        op_span,
        lhs: Box::new(lhs.expr),
        rhs: Box::new(rhs.expr),
    };
    branch(sink, kind, span, depth)
}

pub(crate) fn list_comprehension(
    sink: &mut Sink<'_>,
    element: Node,
    generators: Vec<(Node, Node, Vec<Node>)>,
    span: Span,
) -> Node {
    let mut depth = element.depth;
    let mut clauses = Vec::with_capacity(generators.len());
    for (target, iter, ifs) in generators {
        depth = depth.max(target.depth).max(iter.depth);
        let Some(target) = super::actions::comprehension_target(sink, target.expr) else {
            return Node::error(span);
        };
        clauses.push(Comprehension {
            target,
            iter: iter.expr,
            ifs: ifs
                .into_iter()
                .map(|node| {
                    depth = depth.max(node.depth);
                    node.expr
                })
                .collect(),
        });
    }
    let kind = ExprKind::ListComp {
        element: Box::new(element.expr),
        generators: clauses,
    };
    branch(sink, kind, span, depth)
}

pub(crate) fn if_exp(
    sink: &mut Sink<'_>,
    test: Node,
    body: Node,
    orelse: Node,
    span: Span,
) -> Node {
    let depth = test.depth.max(body.depth).max(orelse.depth);
    let kind = ExprKind::IfExp {
        test: Box::new(test.expr),
        body: Box::new(body.expr),
        orelse: Box::new(orelse.expr),
    };
    branch(sink, kind, span, depth)
}

pub(crate) fn not(sink: &mut Sink<'_>, op_span: Span, operand: Node, span: Span) -> Node {
    let depth = operand.depth;
    let kind = ExprKind::Not {
        op_span,
        operand: Box::new(operand.expr),
    };
    branch(sink, kind, span, depth)
}

pub(crate) fn unary(
    sink: &mut Sink<'_>,
    (op, op_span): (UnaryOp, Span),
    operand: Node,
    span: Span,
) -> Node {
    let depth = operand.depth;
    let kind = ExprKind::Unary {
        op,
        op_span,
        operand: Box::new(operand.expr),
    };
    branch(sink, kind, span, depth)
}

pub(crate) fn attribute(sink: &mut Sink<'_>, value: Node, attr: Ident, span: Span) -> Node {
    let depth = value.depth;
    let kind = ExprKind::Attribute {
        value: Box::new(value.expr),
        attr,
    };
    branch(sink, kind, span, depth)
}

/// Adjacent string literals are one string, as in Python: `'a' "b"` is `"ab"`.
/// A string literal next to others: plain, or an f-string's pieces.
pub(crate) enum StrPart<'src> {
    Plain(Cow<'src, str>),
    F(Vec<crate::ast::FPiece>),
}

/// Adjacent string literals joined: a plain string, or an f-string when any is one.
pub(crate) fn string(parts: Vec<StrPart<'_>>) -> ExprKind {
    use crate::ast::FPiece;
    if parts.iter().all(|p| matches!(p, StrPart::Plain(_))) {
        let mut text = String::new();
        for part in parts {
            if let StrPart::Plain(s) = part {
                text.push_str(&s);
            }
        }
        return ExprKind::Str(text);
    }
    let mut pieces: Vec<FPiece> = Vec::new();
    let push_text = |pieces: &mut Vec<FPiece>, text: &str| {
        if let Some(FPiece::Text(last)) = pieces.last_mut() {
            last.push_str(text);
        } else if !text.is_empty() {
            pieces.push(FPiece::Text(text.to_string()));
        }
    };
    for part in parts {
        match part {
            StrPart::Plain(s) => push_text(&mut pieces, &s),
            StrPart::F(items) => {
                for item in items {
                    match item {
                        FPiece::Text(text) => push_text(&mut pieces, &text),
                        field => pieces.push(field),
                    }
                }
            }
        }
    }
    ExprKind::FString(pieces)
}

/// `a OP b`, or a chain `a OP b OP c` (Python's: each comparison and-ed with the
/// next, each operand evaluated once).
pub(crate) fn comparison(
    sink: &mut Sink<'_>,
    first: Node,
    mut rest: Vec<((CmpOp, Span), Node)>,
    span: Span,
) -> Node {
    let depth = rest
        .iter()
        .map(|(_, node)| node.depth)
        .fold(first.depth, u32::max);
    if rest.len() == 1 {
        let ((op, op_span), rhs) = rest.remove(0);
        let kind = ExprKind::Compare {
            op,
            op_span,
            lhs: Box::new(first.expr),
            rhs: Box::new(rhs.expr),
        };
        return branch(sink, kind, span, depth);
    }
    let links = rest
        .into_iter()
        .map(|((op, op_span), rhs)| ChainLink {
            op,
            op_span,
            rhs: rhs.expr,
        })
        .collect();
    let kind = ExprKind::CompareChain {
        first: Box::new(first.expr),
        links,
    };
    branch(sink, kind, span, depth)
}

/// A call argument as parsed, before its form is checked.
///
/// The rare, large forms are boxed: the parser's stack holds values of its largest
/// symbol type, and every reduction moves one.
pub(crate) enum ArgDraft {
    Positional(Node),
    Keyword(Box<KeywordDraft>),
}

/// `name=value`; `name` is any expression until checked.
pub(crate) struct KeywordDraft {
    pub name: Node,
    pub value: Node,
    pub span: Span,
}

/// `func(args)`, checking that keywords are names, come last and are not repeated.
pub(crate) fn call(sink: &mut Sink<'_>, func: Node, drafts: Vec<ArgDraft>, span: Span) -> Node {
    let mut depth = func.depth;
    let mut args: Vec<Arg> = Vec::with_capacity(drafts.len());
    let mut valid = true;
    for draft in drafts {
        match draft {
            ArgDraft::Positional(value) => {
                depth = depth.max(value.depth);
                if let Some(keyword) = args.iter().find(|arg| arg.name.is_some()) {
                    let keyword_span = keyword.span;
                    sink.report(
                        Diagnostic::error(
                            "positional argument follows keyword argument",
                            value.expr.span,
                        )
                        .with_label("positional argument")
                        .with_secondary(keyword_span, "keyword argument")
                        .with_help("put positional arguments before keyword arguments"),
                    );
                    valid = false;
                }
                args.push(Arg {
                    name: None,
                    span: value.expr.span,
                    value: value.expr,
                });
            }
            ArgDraft::Keyword(keyword) => {
                let KeywordDraft { name, value, span } = *keyword;
                depth = depth.max(value.depth);
                let Some(name) = keyword_name(sink, name.expr) else {
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
                    value: value.expr,
                    span,
                });
            }
        }
    }
    if !valid {
        return Node::error(span);
    }
    let kind = ExprKind::Call {
        func: Box::new(func.expr),
        args,
    };
    branch(sink, kind, span, depth)
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

/// One item between `[` and `]` as parsed (the slice boxed, as in [`ArgDraft`]).
pub(crate) enum SubscriptDraft {
    Index(Node),
    Slice(Box<SliceDraft>),
}

/// `lower:upper:step`, any part omitted.
pub(crate) struct SliceDraft {
    pub lower: Option<Node>,
    pub upper: Option<Node>,
    pub step: Option<Node>,
    pub span: Span,
}

impl SubscriptDraft {
    fn depth(&self) -> u32 {
        match self {
            SubscriptDraft::Index(node) => node.depth,
            SubscriptDraft::Slice(slice) => {
                deepest(
                    [&slice.lower, &slice.upper, &slice.step]
                        .into_iter()
                        .flatten(),
                ) + 1
            }
        }
    }

    fn into_item(self) -> SubscriptItem {
        let expr = |node: Option<Node>| node.map(|node| node.expr);
        match self {
            SubscriptDraft::Index(node) => SubscriptItem::Expr(node.expr),
            SubscriptDraft::Slice(slice) => SubscriptItem::Slice {
                lower: expr(slice.lower),
                upper: expr(slice.upper),
                step: expr(slice.step),
                span: slice.span,
            },
        }
    }
}

/// `value[items]`; at least one item is required.
pub(crate) fn subscript(
    sink: &mut Sink<'_>,
    value: Node,
    items: Vec<SubscriptDraft>,
    span: Span,
) -> Node {
    if items.is_empty() {
        sink.report(
            Diagnostic::error("empty subscript", span)
                .with_label("expected an index between `[` and `]`")
                .with_help("write an index such as `a[0]`, a slice such as `a[1:3]`, or `a[...]`"),
        );
        return Node::error(span);
    }
    let depth = items
        .iter()
        .map(SubscriptDraft::depth)
        .max()
        .unwrap_or(0)
        .max(value.depth);
    let kind = ExprKind::Subscript {
        value: Box::new(value.expr),
        items: items.into_iter().map(SubscriptDraft::into_item).collect(),
    };
    branch(sink, kind, span, depth)
}
