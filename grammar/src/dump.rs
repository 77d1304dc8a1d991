//! The `--emit ast` dumps: an indented one-node-per-line text tree, and a Graphviz
//! digraph of the same tree.
//!
//! Both renderings come from one pre-order walk ([`flatten`]), so they always show the
//! same nodes, and both are deterministic: same AST, same bytes.

use std::fmt::Write;

use crate::ast::{Arg, Expr, ExprKind, Ident, Module, Stmt, StmtKind, SubscriptItem, Target};
use crate::source_map::LineIndex;
use crate::span::Span;

/// The text tree, e.g.
///
/// ```text
/// Module 1:1-2:1
///   Assign 1:1-1:10
///     target: Ident x 1:1-1:2
///     value: Binary + 1:5-1:10
/// ```
///
/// Spans print as `line:col-line:col`, 1-based, the end just past the last character.
pub fn dump_ast(module: &Module, source: &str) -> String {
    let lines = LineIndex::new(source);
    let mut out = String::new();
    for node in flatten(module, Span::new(0, source.len())) {
        let indent = "  ".repeat(node.depth);
        let role = if node.role.is_empty() {
            String::new()
        } else {
            format!("{}: ", node.role)
        };
        let detail = if node.detail.is_empty() {
            String::new()
        } else {
            format!(" {}", node.detail)
        };
        let span = lines.format_span(node.span);
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{indent}{role}{}{detail} {span}", node.kind);
    }
    out
}

/// A Graphviz digraph of the tree: one box per node (kind, detail, byte range),
/// edges labelled with the child's role.
pub fn dump_ast_dot(module: &Module) -> String {
    let end = module.stmts.last().map_or(0, |stmt| stmt.span.end as usize);
    let mut out = String::from("digraph ast {\n  node [shape=box, fontname=\"monospace\"];\n");
    let mut parents: Vec<usize> = Vec::new();
    for (id, node) in flatten(module, Span::new(0, end)).into_iter().enumerate() {
        let label = format!(
            "{}{}{}\\n{}..{}",
            node.kind,
            if node.detail.is_empty() { "" } else { " " },
            escape_dot(&node.detail),
            node.span.start,
            node.span.end
        );
        let _ = writeln!(out, "  n{id} [label=\"{label}\"];");
        parents.truncate(node.depth);
        if let Some(parent) = parents.last() {
            let _ = writeln!(
                out,
                "  n{parent} -> n{id} [label=\"{}\"];",
                escape_dot(node.role)
            );
        }
        parents.push(id);
    }
    out.push_str("}\n");
    out
}

fn escape_dot(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One line of the dump: a node and its place in the tree.
struct DumpNode {
    depth: usize,
    /// How the parent uses this node (`lhs`, `value`, `arg`); empty for the root.
    role: &'static str,
    kind: &'static str,
    detail: String,
    span: Span,
}

/// The tree in pre-order.
fn flatten(module: &Module, module_span: Span) -> Vec<DumpNode> {
    let mut walk = Walk { nodes: Vec::new() };
    walk.push(0, "", "Module", String::new(), module_span);
    for stmt in &module.stmts {
        walk.stmt(1, stmt);
    }
    walk.nodes
}

struct Walk {
    nodes: Vec<DumpNode>,
}

impl Walk {
    fn push(
        &mut self,
        depth: usize,
        role: &'static str,
        kind: &'static str,
        detail: String,
        span: Span,
    ) {
        self.nodes.push(DumpNode {
            depth,
            role,
            kind,
            detail,
            span,
        });
    }

    fn ident(&mut self, depth: usize, role: &'static str, ident: &Ident) {
        self.push(depth, role, "Ident", ident.name.clone(), ident.span);
    }

    fn stmt(&mut self, depth: usize, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Import { module, alias } => {
                let path: Vec<&str> = module.iter().map(|part| part.name.as_str()).collect();
                self.push(depth, "", "Import", path.join("."), stmt.span);
                if let Some(alias) = alias {
                    self.ident(depth + 1, "alias", alias);
                }
            }
            StmtKind::Assign { target, value } => {
                self.push(depth, "", "Assign", String::new(), stmt.span);
                self.ident(depth + 1, "target", target);
                self.expr(depth + 1, "value", value);
            }
            StmtKind::AugAssign {
                target, op, value, ..
            } => {
                self.push(
                    depth,
                    "",
                    "AugAssign",
                    format!("{}=", op.symbol()),
                    stmt.span,
                );
                self.ident(depth + 1, "target", target);
                self.expr(depth + 1, "value", value);
            }
            StmtKind::SetItem { target, op, value } => {
                let op = op.map_or("=".to_string(), |(op, _)| format!("{}=", op.symbol()));
                self.push(depth, "", "SetItem", op, stmt.span);
                self.expr(depth + 1, "target", target);
                self.expr(depth + 1, "value", value);
            }
            StmtKind::Expr(value) => {
                self.push(depth, "", "ExprStmt", String::new(), stmt.span);
                self.expr(depth + 1, "value", value);
            }
            StmtKind::Unpack { target, value } => {
                self.push(depth, "", "Unpack", String::new(), stmt.span);
                self.target(depth + 1, "target", target);
                self.expr(depth + 1, "value", value);
            }
            StmtKind::If { branches, orelse } => {
                self.push(depth, "", "If", String::new(), stmt.span);
                for branch in branches {
                    self.expr(depth + 1, "test", &branch.test);
                    self.block(depth + 1, "body", &branch.body, branch.test.span);
                }
                if let Some(orelse) = orelse {
                    self.block(depth + 1, "else", orelse, stmt.span);
                }
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => {
                self.push(depth, "", "For", String::new(), stmt.span);
                self.target(depth + 1, "target", target);
                self.expr(depth + 1, "iter", iter);
                self.block(depth + 1, "body", body, iter.span);
                if let Some(orelse) = orelse {
                    self.block(depth + 1, "else", orelse, stmt.span);
                }
            }
            StmtKind::While { test, body, orelse } => {
                self.push(depth, "", "While", String::new(), stmt.span);
                self.expr(depth + 1, "test", test);
                self.block(depth + 1, "body", body, test.span);
                if let Some(orelse) = orelse {
                    self.block(depth + 1, "else", orelse, stmt.span);
                }
            }
            StmtKind::Def(def) => {
                self.push(depth, "", "Def", def.name.name.clone(), stmt.span);
                for param in &def.params {
                    self.ident(depth + 1, "param", &param.name);
                    if let Some(default) = &param.default {
                        self.expr(depth + 2, "default", default);
                    }
                }
                self.block(depth + 1, "body", &def.body, def.header);
            }
            StmtKind::Return(value) => {
                self.push(depth, "", "Return", String::new(), stmt.span);
                if let Some(value) = value {
                    self.expr(depth + 1, "value", value);
                }
            }
            StmtKind::Break => self.push(depth, "", "Break", String::new(), stmt.span),
            StmtKind::Continue => self.push(depth, "", "Continue", String::new(), stmt.span),
            StmtKind::Pass => self.push(depth, "", "Pass", String::new(), stmt.span),
            StmtKind::Assert { test, message } => {
                self.push(depth, "", "Assert", String::new(), stmt.span);
                self.expr(depth + 1, "test", test);
                if let Some(message) = message {
                    self.expr(depth + 1, "message", message);
                }
            }
        }
    }

    /// A block's statements under one `Block` line spanning them (`fallback` when
    /// the block is empty because its statements failed to parse).
    fn block(&mut self, depth: usize, role: &'static str, body: &[Stmt], fallback: Span) {
        let span = match (body.first(), body.last()) {
            (Some(first), Some(last)) => first.span.to(last.span),
            _ => fallback,
        };
        self.push(depth, role, "Block", String::new(), span);
        for stmt in body {
            self.stmt(depth + 1, stmt);
        }
    }

    fn target(&mut self, depth: usize, role: &'static str, target: &Target) {
        match target {
            Target::Name(ident) => self.ident(depth, role, ident),
            Target::Unpack { items, span } => {
                self.push(depth, role, "Unpack", String::new(), *span);
                for item in items {
                    self.target(depth + 1, "item", item);
                }
            }
        }
    }

    fn expr(&mut self, depth: usize, role: &'static str, expr: &Expr) {
        let span = expr.span;
        let child = depth + 1;
        match &expr.kind {
            ExprKind::Name(name) => self.push(depth, role, "Name", name.clone(), span),
            ExprKind::Int(value) => self.push(depth, role, "Int", value.to_string(), span),
            ExprKind::Float(value) => self.push(depth, role, "Float", format!("{value:?}"), span),
            ExprKind::Imaginary(value) => {
                self.push(depth, role, "Imaginary", format!("{value:?}"), span)
            }
            ExprKind::Bool(value) => {
                let text = if *value { "True" } else { "False" };
                self.push(depth, role, "Bool", text.to_string(), span);
            }
            ExprKind::None => self.push(depth, role, "None", String::new(), span),
            ExprKind::Str(value) => self.push(depth, role, "Str", format!("{value:?}"), span),
            ExprKind::Ellipsis => self.push(depth, role, "Ellipsis", String::new(), span),
            ExprKind::FString(pieces) => {
                self.push(depth, role, "FString", String::new(), span);
                for piece in pieces {
                    match piece {
                        crate::ast::FPiece::Text(text) => {
                            self.push(child, "text", "Str", format!("{text:?}"), span)
                        }
                        crate::ast::FPiece::Field {
                            expr,
                            debug,
                            conversion,
                            spec,
                        } => {
                            let mut label = String::new();
                            if let Some(debug) = debug {
                                label.push_str(&format!("debug={debug:?} "));
                            }
                            if let Some(c) = conversion {
                                label.push_str(&format!("!{c} "));
                            }
                            label.push_str(&format!("spec={spec:?}"));
                            self.expr(child, "field", expr);
                            self.push(child + 1, "format", "Format", label, expr.span);
                        }
                    }
                }
            }
            ExprKind::Error => self.push(depth, role, "Error", String::new(), span),
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                let kind = if matches!(expr.kind, ExprKind::Tuple(_)) {
                    "Tuple"
                } else {
                    "List"
                };
                self.push(depth, role, kind, String::new(), span);
                for item in items {
                    self.expr(child, "item", item);
                }
            }
            ExprKind::Attribute { value, attr } => {
                self.push(depth, role, "Attribute", format!(".{}", attr.name), span);
                self.expr(child, "value", value);
            }
            ExprKind::Call { func, args } => {
                self.push(depth, role, "Call", String::new(), span);
                self.expr(child, "func", func);
                for arg in args {
                    self.arg(child, arg);
                }
            }
            ExprKind::Subscript { value, items } => {
                self.push(depth, role, "Subscript", String::new(), span);
                self.expr(child, "value", value);
                for item in items {
                    self.subscript_item(child, item);
                }
            }
            ExprKind::Unary { op, operand, .. } => {
                self.push(depth, role, "Unary", op.symbol().to_string(), span);
                self.expr(child, "operand", operand);
            }
            ExprKind::Binary { op, lhs, rhs, .. } => {
                self.push(depth, role, "Binary", op.symbol().to_string(), span);
                self.expr(child, "lhs", lhs);
                self.expr(child, "rhs", rhs);
            }
            ExprKind::Compare { op, lhs, rhs, .. } => {
                self.push(depth, role, "Compare", op.symbol().to_string(), span);
                self.expr(child, "lhs", lhs);
                self.expr(child, "rhs", rhs);
            }
            ExprKind::CompareChain { first, links } => {
                let ops: Vec<&str> = links.iter().map(|link| link.op.symbol()).collect();
                self.push(depth, role, "CompareChain", ops.join(" "), span);
                self.expr(child, "first", first);
                for link in links {
                    self.expr(child, "rhs", &link.rhs);
                }
            }
            ExprKind::BoolOp { op, lhs, rhs, .. } => {
                let text = match op {
                    crate::ast::BoolOp::And => "and",
                    crate::ast::BoolOp::Or => "or",
                };
                self.push(depth, role, "BoolOp", text.to_string(), span);
                self.expr(child, "lhs", lhs);
                self.expr(child, "rhs", rhs);
            }
            ExprKind::Not { operand, .. } => {
                self.push(depth, role, "Not", String::new(), span);
                self.expr(child, "operand", operand);
            }
            ExprKind::ListComp {
                element,
                generators,
            } => {
                self.push(depth, role, "ListComp", String::new(), span);
                self.expr(child, "element", element);
                for generator in generators {
                    self.target(child, "for", &generator.target);
                    self.expr(child, "in", &generator.iter);
                    for condition in &generator.ifs {
                        self.expr(child, "if", condition);
                    }
                }
            }
            ExprKind::IfExp { test, body, orelse } => {
                self.push(depth, role, "IfExp", String::new(), span);
                self.expr(child, "test", test);
                self.expr(child, "body", body);
                self.expr(child, "else", orelse);
            }
        }
    }

    fn arg(&mut self, depth: usize, arg: &Arg) {
        match &arg.name {
            None => self.expr(depth, "arg", &arg.value),
            Some(name) => {
                self.push(depth, "arg", "Keyword", name.name.clone(), arg.span);
                self.expr(depth + 1, "value", &arg.value);
            }
        }
    }

    fn subscript_item(&mut self, depth: usize, item: &SubscriptItem) {
        match item {
            SubscriptItem::Expr(index) => self.expr(depth, "index", index),
            SubscriptItem::Slice {
                lower,
                upper,
                step,
                span,
            } => {
                self.push(depth, "index", "Slice", String::new(), *span);
                for (role, part) in [("lower", lower), ("upper", upper), ("step", step)] {
                    if let Some(part) = part {
                        self.expr(depth + 1, role, part);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn text_dump_shows_kinds_details_and_spans() {
        let source = "import mars.tensor as mt\nx = -mt.ones((2,), chunks=2)[1:, None]\nx **= 'a\\n'; print(x < 1)\n";
        let (module, diagnostics) = parse(source);
        assert!(diagnostics.is_empty());
        let expected = "\
Module 1:1-4:1
  Import mars.tensor 1:1-1:25
    alias: Ident mt 1:23-1:25
  Assign 2:1-2:39
    target: Ident x 2:1-2:2
    value: Unary - 2:5-2:39
      operand: Subscript 2:6-2:39
        value: Call 2:6-2:29
          func: Attribute .ones 2:6-2:13
            value: Name mt 2:6-2:8
          arg: Tuple 2:14-2:18
            item: Int 2 2:15-2:16
          arg: Keyword chunks 2:20-2:28
            value: Int 2 2:27-2:28
        index: Slice 2:30-2:32
          lower: Int 1 2:30-2:31
        index: None 2:34-2:38
  AugAssign **= 3:1-3:12
    target: Ident x 3:1-3:2
    value: Str \"a\\n\" 3:7-3:12
  ExprStmt 3:14-3:26
    value: Call 3:14-3:26
      func: Name print 3:14-3:19
      arg: Compare < 3:20-3:25
        lhs: Name x 3:20-3:21
        rhs: Int 1 3:24-3:25
";
        assert_eq!(dump_ast(&module, source), expected);
    }

    #[test]
    fn every_expression_kind_has_a_line() {
        let source = "f(1.5, True, False, ..., [a], a.b, a and not b, ~a ** 2 | b)";
        let (module, _) = parse(source);
        let dump = dump_ast(&module, source);
        for kind in [
            "Float 1.5",
            "Bool True",
            "Bool False",
            "Ellipsis",
            "List",
            "Attribute .b",
            "BoolOp and",
            "Not",
            "Binary |",
            "Unary ~",
            "Binary **",
        ] {
            assert!(dump.contains(kind), "{kind} missing from\n{dump}");
        }
    }

    #[test]
    fn dot_dump_is_a_digraph_of_the_same_tree() {
        let source = "y = f(\"q\\\"\")\n";
        let (module, _) = parse(source);
        let dot = dump_ast_dot(&module);
        assert!(dot.starts_with("digraph ast {\n"));
        assert!(dot.ends_with("}\n"));
        let nodes = dot
            .lines()
            .filter(|line| line.contains("[label=") && !line.contains("->"))
            .count();
        let edges = dot.lines().filter(|line| line.contains("->")).count();
        assert_eq!(nodes, dump_ast(&module, source).lines().count());
        assert_eq!(edges, nodes - 1);
        assert!(dot.contains("n1 -> n2 [label=\"target\"]"));
        // The string's quote and backslash are escaped for Graphviz.
        assert!(dot.contains(r#"Str \"q\\\"\""#), "{dot}");
    }
}
