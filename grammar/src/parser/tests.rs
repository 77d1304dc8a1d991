//! Unit tests of the parser: precedence (checked against Python's `ast`), literals,
//! statement separation, every targeted error, and recovery.

use crate::ast::{BinOp, Expr, ExprKind, Stmt, StmtKind, SubscriptItem};
use crate::diagnostic::Diagnostic;
use crate::parse;
use crate::span::Span;

/// A compact fully parenthesised rendering, so precedence is visible at a glance.
fn sexpr(expr: &Expr) -> String {
    match &expr.kind {
        ExprKind::Name(name) => name.clone(),
        ExprKind::Int(value) => value.to_string(),
        ExprKind::Float(value) => format!("{value:?}"),
        ExprKind::Imaginary(value) => format!("{value:?}j"),
        ExprKind::Bool(value) => if *value { "True" } else { "False" }.to_string(),
        ExprKind::None => "None".into(),
        ExprKind::Str(value) => format!("{value:?}"),
        ExprKind::FString(pieces) => {
            let parts: Vec<String> = pieces
                .iter()
                .map(|piece| match piece {
                    crate::ast::FPiece::Text(text) => format!("{text:?}"),
                    crate::ast::FPiece::Field {
                        expr,
                        conversion,
                        spec,
                        ..
                    } => format!(
                        "{{{}{}:{spec}}}",
                        sexpr(expr),
                        conversion.map(|c| format!("!{c}")).unwrap_or_default()
                    ),
                })
                .collect();
            format!("(f {})", parts.join(" "))
        }
        ExprKind::Ellipsis => "...".into(),
        ExprKind::Error => "<error>".into(),
        ExprKind::Tuple(items) => format!("(tuple {})", list(items)),
        ExprKind::List(items) => format!("(list {})", list(items)),
        ExprKind::Attribute { value, attr } => format!("(. {} {})", sexpr(value), attr.name),
        ExprKind::Call { func, args } => {
            let args: Vec<String> = args
                .iter()
                .map(|arg| match &arg.name {
                    Some(name) => format!("{}={}", name.name, sexpr(&arg.value)),
                    None => sexpr(&arg.value),
                })
                .collect();
            format!("(call {} {})", sexpr(func), args.join(" "))
        }
        ExprKind::Subscript { value, items } => {
            let items: Vec<String> = items.iter().map(subscript_item).collect();
            format!("(index {} {})", sexpr(value), items.join(" "))
        }
        ExprKind::Unary { op, operand, .. } => format!("({} {})", op.symbol(), sexpr(operand)),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", op.symbol(), sexpr(lhs), sexpr(rhs))
        }
        ExprKind::Compare { op, lhs, rhs, .. } => {
            format!("({} {} {})", op.symbol(), sexpr(lhs), sexpr(rhs))
        }
        ExprKind::CompareChain { first, links } => {
            let links: Vec<String> = links
                .iter()
                .map(|link| format!("{} {}", link.op.symbol(), sexpr(&link.rhs)))
                .collect();
            format!("(chain {} {})", sexpr(first), links.join(" "))
        }
        ExprKind::BoolOp { op, lhs, rhs, .. } => {
            let op = match op {
                crate::ast::BoolOp::And => "and",
                crate::ast::BoolOp::Or => "or",
            };
            format!("({op} {} {})", sexpr(lhs), sexpr(rhs))
        }
        ExprKind::Not { operand, .. } => format!("(not {})", sexpr(operand)),
        ExprKind::IfExp { test, body, orelse } => {
            format!("(if {} {} {})", sexpr(test), sexpr(body), sexpr(orelse))
        }
        ExprKind::ListComp {
            element,
            generators,
        } => {
            let clauses: Vec<String> = generators
                .iter()
                .map(|g| {
                    let ifs: Vec<String> =
                        g.ifs.iter().map(|c| format!(" if {}", sexpr(c))).collect();
                    let names: Vec<&str> =
                        g.target.names().iter().map(|n| n.name.as_str()).collect();
                    format!(
                        "for {} in {}{}",
                        names.join(","),
                        sexpr(&g.iter),
                        ifs.concat()
                    )
                })
                .collect();
            format!("(listcomp {} {})", sexpr(element), clauses.join(" "))
        }
    }
}

fn list(items: &[Expr]) -> String {
    items.iter().map(sexpr).collect::<Vec<_>>().join(" ")
}

fn subscript_item(item: &SubscriptItem) -> String {
    match item {
        SubscriptItem::Expr(expr) => sexpr(expr),
        SubscriptItem::Slice {
            lower, upper, step, ..
        } => {
            let part = |e: &Option<Expr>| e.as_ref().map_or(String::new(), sexpr);
            format!("{}:{}:{}", part(lower), part(upper), part(step))
        }
    }
}

fn parse_clean(source: &str) -> Vec<Stmt> {
    let (module, diagnostics) = parse(source);
    assert!(
        diagnostics.is_empty(),
        "unexpected diagnostics for {source:?}: {diagnostics:#?}"
    );
    module.stmts
}

/// The single expression statement `source` must consist of, rendered.
fn expression(source: &str) -> String {
    let stmts = parse_clean(source);
    assert_eq!(stmts.len(), 1, "{source:?}");
    match &stmts[0].kind {
        StmtKind::Expr(expr) => sexpr(expr),
        other => panic!("not an expression statement: {other:?}"),
    }
}

fn errors(source: &str) -> Vec<Diagnostic> {
    let (_, diagnostics) = parse(source);
    diagnostics
}

/// The one diagnostic `source` must produce.
fn single_error(source: &str) -> Diagnostic {
    let diagnostics = errors(source);
    assert_eq!(diagnostics.len(), 1, "{source:?}: {diagnostics:#?}");
    diagnostics.into_iter().next().unwrap()
}

#[test]
fn arithmetic_precedence_matches_python() {
    assert_eq!(expression("-2**2"), "(- (** 2 2))");
    assert_eq!(expression("a+b*c"), "(+ a (* b c))");
    assert_eq!(expression("a@b+c"), "(+ (@ a b) c)");
    assert_eq!(expression("-x @ y"), "(@ (- x) y)");
    assert_eq!(expression("a-b-c"), "(- (- a b) c)");
    assert_eq!(expression("a//b%c*d"), "(* (% (// a b) c) d)");
    assert_eq!(expression("a / b / c"), "(/ (/ a b) c)");
}

#[test]
fn power_is_right_associative_and_takes_a_signed_exponent() {
    assert_eq!(expression("2**3**2"), "(** 2 (** 3 2))");
    assert_eq!(expression("2**-1"), "(** 2 (- 1))");
    assert_eq!(expression("~a**2"), "(~ (** a 2))");
    assert_eq!(expression("-a.b"), "(- (. a b))");
    assert_eq!(expression("+-x"), "(+ (- x))");
}

#[test]
fn bitwise_precedence_matches_python() {
    assert_eq!(expression("a&b|c^d"), "(| (& a b) (^ c d))");
    assert_eq!(expression("a|b^c&d+e"), "(| a (^ b (& c (+ d e))))");
}

#[test]
fn comparisons_bind_looser_than_bitwise_operators() {
    assert_eq!(expression("a < b | c"), "(< a (| b c))");
    assert_eq!(expression("a & b == c"), "(== (& a b) c)");
    assert_eq!(expression("(a < b) & (b < c)"), "(& (< a b) (< b c))");
    // Parenthesised, a comparison of a comparison is not a chain.
    assert_eq!(expression("(a < b) < c"), "(< (< a b) c)");
    assert_eq!(expression("a != b"), "(!= a b)");
    assert_eq!(expression("a >= b"), "(>= a b)");
}

#[test]
fn boolean_operators() {
    assert_eq!(expression("not a == b"), "(not (== a b))");
    assert_eq!(expression("a or b and c"), "(or a (and b c))");
    assert_eq!(expression("a and b or c"), "(or (and a b) c)");
    assert_eq!(expression("not not a"), "(not (not a))");
}

#[test]
fn postfix_operations() {
    assert_eq!(
        expression("mt.ones((2, 3), chunks=2,).sum(axis=0)[1]"),
        "(index (call (. (call (. mt ones) (tuple 2 3) chunks=2) sum) axis=0) 1)"
    );
    assert_eq!(expression("f()"), "(call f )");
    assert_eq!(expression("x.T.shape"), "(. (. x T) shape)");
}

#[test]
fn subscripts_and_slices() {
    assert_eq!(expression("a[1:2, ::3]"), "(index a 1:2: ::3)");
    assert_eq!(expression("a[:]"), "(index a ::)");
    assert_eq!(expression("a[::]"), "(index a ::)");
    assert_eq!(
        expression("a[-1:, None, ...]"),
        "(index a (- 1):: None ...)"
    );
    assert_eq!(expression("a[(1, 2)]"), "(index a (tuple 1 2))");
    assert_eq!(expression("a[1, 2]"), "(index a 1 2)");
    assert_eq!(expression("a[i:j:k]"), "(index a i:j:k)");
}

#[test]
fn tuples_and_lists() {
    assert_eq!(expression("()"), "(tuple )");
    assert_eq!(expression("(a,)"), "(tuple a)");
    assert_eq!(expression("(a)"), "a");
    assert_eq!(expression("a, b"), "(tuple a b)");
    assert_eq!(expression("a,"), "(tuple a)");
    assert_eq!(expression("[]"), "(list )");
    assert_eq!(
        expression("[[1, 2], [3, 4],]"),
        "(list (list 1 2) (list 3 4))"
    );
}

#[test]
fn literals() {
    assert_eq!(
        expression("[42, 1_000_000, 0x1f, 0o17, 0b101, 1.5, .5, 5., 1e-3, 1_0.5]"),
        "(list 42 1000000 31 15 5 1.5 0.5 5.0 0.001 10.5)"
    );
    assert_eq!(
        expression(r#"[True, False, None, ..., 'a\tb', "q\"", 'x' "y"]"#),
        r#"(list True False None ... "a\tb" "q\"" "xy")"#
    );
}

#[test]
fn statements() {
    let stmts = parse_clean("import mars.tensor as mt\nimport numpy\nx = 1\nx **= 2\nprint(x)\n");
    assert_eq!(stmts.len(), 5);
    match &stmts[0].kind {
        StmtKind::Import { module, alias } => {
            let path: Vec<&str> = module.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(path, ["mars", "tensor"]);
            assert_eq!(alias.as_ref().map(|a| a.name.as_str()), Some("mt"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        &stmts[1].kind,
        StmtKind::Import { alias: None, .. }
    ));
    match &stmts[3].kind {
        StmtKind::AugAssign {
            target, op, value, ..
        } => {
            assert_eq!(target.name, "x");
            assert_eq!(op.symbol(), "**");
            assert_eq!(sexpr(value), "2");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(stmts[4].span, Span::new(52, 60));
}

#[test]
fn every_augmented_operator() {
    let source = "x += 1\nx -= 1\nx *= 1\nx /= 1\nx //= 1\nx %= 1\nx **= 1\nx @= 1\n";
    let ops: Vec<&str> = parse_clean(source)
        .iter()
        .map(|stmt| match &stmt.kind {
            StmtKind::AugAssign { op, .. } => op.symbol(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ops, ["+", "-", "*", "/", "//", "%", "**", "@"]);
}

#[test]
fn semicolons_separate_statements() {
    assert_eq!(parse_clean("a = 1; b = 2; print(a)\n").len(), 3);
    assert_eq!(parse_clean("a = 1;\n").len(), 1);
    assert_eq!(parse_clean("a = 1; b = 2;").len(), 2);
}

#[test]
fn continuation_and_brackets_spanning_lines() {
    let stmts =
        parse_clean("x = 1 + \\\n    2\ny = mt.tensor([\n  [1, 2],\n  [3, 4],\n])\nz = (a\n+ b)\n");
    assert_eq!(stmts.len(), 3);
    match &stmts[0].kind {
        StmtKind::Assign { value, .. } => assert_eq!(sexpr(value), "(+ 1 2)"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn comments_and_blank_lines() {
    let stmts = parse_clean("# a script\n\nx = 1  # one\n\n\n# done\n");
    assert_eq!(stmts.len(), 1);
    assert!(parse_clean("").is_empty());
    assert!(parse_clean("# only a comment").is_empty());
}

#[test]
fn spans_cover_the_source_text() {
    let source = "y = (a + b) * 2\n";
    let stmts = parse_clean(source);
    let StmtKind::Assign { value, target } = &stmts[0].kind else {
        panic!()
    };
    assert_eq!(&source[target.span.range()], "y");
    assert_eq!(&source[value.span.range()], "(a + b) * 2");
    let ExprKind::Binary { lhs, op_span, .. } = &value.kind else {
        panic!()
    };
    assert_eq!(&source[lhs.span.range()], "(a + b)");
    assert_eq!(&source[op_span.range()], "*");
}

#[test]
fn chained_comparisons_parse_as_one_chain() {
    assert_eq!(expression("a < b < c"), "(chain a < b < c)");
    assert_eq!(expression("0 <= x == y != 2"), "(chain 0 <= x == y != 2)");
    assert_eq!(expression("a < b | c <= d"), "(chain a < (| b c) <= d)");
    assert_eq!(expression("a < b and b < c"), "(and (< a b) (< b c))");
    assert_eq!(expression("not a < b < c"), "(not (chain a < b < c))");
}

#[test]
fn assignment_through_an_index_is_a_set_item() {
    for (source, op) in [
        ("a[0] = 1\n", None),
        ("a[1:3, None] += b\n", Some(BinOp::Add)),
        ("a[m] *= 2\n", Some(BinOp::Mul)),
    ] {
        let stmts = parse_clean(source);
        match &stmts[0].kind {
            StmtKind::SetItem {
                target, op: got, ..
            } => {
                assert!(
                    matches!(target.kind, ExprKind::Subscript { .. }),
                    "{source:?}"
                );
                assert_eq!(got.map(|(op, _)| op), op, "{source:?}");
            }
            other => panic!("{source:?} parsed as {other:?}"),
        }
    }
}

#[test]
fn assignment_targets_must_be_names() {
    let cases = [
        (
            "a[0], b = 1, 2\n",
            "not supported yet: assignment to an element or slice inside an unpacking",
        ),
        ("a.b = 1\n", "assignment to an attribute is not supported"),
        ("a, f(x) = 1, 2\n", "cannot assign to a function call"),
        ("f(x) = 1\n", "cannot assign to a function call"),
        ("1 = x\n", "cannot assign to a literal"),
        ("a + b = c\n", "cannot assign to an expression"),
        (
            "a, b += 1\n",
            "unpacking is not supported with an augmented assignment (with `+=`)",
        ),
        ("a = b = 1\n", "chained assignment is not supported"),
    ];
    for (source, message) in cases {
        let diagnostic = single_error(source);
        assert_eq!(diagnostic.message, message, "{source:?}");
        assert!(diagnostic.help.is_some(), "{source:?}");
    }
    assert_eq!(single_error("a.b = 1\n").span, Span::new(0, 3));
}

#[test]
fn keyword_arguments() {
    assert_eq!(
        expression("f(a, b=1, c=x == y,)"),
        "(call f a b=1 c=(== x y))"
    );
    let diagnostic = single_error("f(a=1, 2)\n");
    assert_eq!(
        diagnostic.message,
        "positional argument follows keyword argument"
    );
    assert_eq!(diagnostic.span, Span::new(7, 8));
    assert_eq!(
        diagnostic.secondary,
        vec![(Span::new(2, 5), "keyword argument".to_string())]
    );
    assert!(diagnostic.help.is_some());
    let diagnostic = single_error("f(a=1, a=2)\n");
    assert_eq!(diagnostic.message, "keyword argument `a` repeated");
    let diagnostic = single_error("f(x.y=1)\n");
    assert_eq!(diagnostic.message, "expected a parameter name before `=`");
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("to compare two values, use `==`")
    );
}

#[test]
fn python_two_print_gets_a_help() {
    let diagnostic = single_error("x = 1\nprint x\n");
    assert_eq!(diagnostic.message, "missing parentheses in call to `print`");
    assert_eq!(diagnostic.span, Span::new(6, 11));
    assert_eq!(diagnostic.help.as_deref(), Some("write `print(x)`"));
}

#[test]
fn unclosed_bracket_at_end_of_file_points_at_the_opening() {
    let diagnostic = single_error("x = 1\ny = mt.sum(x,\nz = 2\nprint(z)\n");
    assert_eq!(diagnostic.message, "unclosed `(`");
    assert_eq!(diagnostic.span, Span::new(16, 17));
    assert!(diagnostic.help.is_some());
    assert_eq!(single_error("f([1, 2").message, "unclosed `(`");
}

#[test]
fn missing_closer_names_the_bracket() {
    let diagnostic = single_error("f(a b)\n");
    assert_eq!(
        diagnostic.message,
        "expected `)` to close `(`, found name `b`"
    );
    assert_eq!(diagnostic.secondary[0].0, Span::new(1, 2));
    assert_eq!(diagnostic.help.as_deref(), Some("did you forget a comma?"));
    assert_eq!(
        single_error("x = [1, 2 3]\n").message,
        "expected `]` to close `[`, found number `3`"
    );
}

#[test]
fn expected_an_expression() {
    assert_eq!(
        single_error("x = \n").message,
        "expected an expression, found end of line"
    );
    assert_eq!(
        single_error("x = (1 + )\n").message,
        "expected an expression, found `)`"
    );
    assert_eq!(
        single_error("x = = 2\n").message,
        "expected an expression, found `=`"
    );
    assert_eq!(
        single_error("x = 1 +").message,
        "expected an expression, found end of file"
    );
    assert_eq!(
        single_error("import\n").message,
        "expected a name, found end of line"
    );
}

#[test]
fn other_targeted_syntax_errors() {
    let diagnostic = single_error("x = 1 2\n");
    assert_eq!(diagnostic.message, "unexpected number `2`");
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("did you forget an operator or a comma?")
    );
    let diagnostic = single_error("import numpy np\n");
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("write `import module.path as name`")
    );
    let diagnostic = single_error("x = {1: 2}\n");
    assert_eq!(
        diagnostic.message,
        "dict and set literals are not supported yet"
    );
    assert_eq!(single_error("a[]\n").message, "empty subscript");
    let diagnostic = single_error("f(*args)\n");
    assert_eq!(diagnostic.message, "expected an expression, found `*`");
    assert!(diagnostic.help.unwrap().contains("unpacking"));
    assert_eq!(
        single_error(";\n").message,
        "expected an expression, found `;`"
    );
}

#[test]
fn lexical_errors_are_not_reported_twice() {
    let diagnostic = single_error("with f() as g:\n    print(g)\n");
    assert_eq!(diagnostic.message, "`with` is not supported");
    let diagnostic = single_error("x = lambda y: 2\n");
    assert_eq!(diagnostic.message, "`lambda` is not supported");
    assert_eq!(
        single_error("x = 99999999999999999999\n").message,
        "integer literal is too large"
    );
    assert_eq!(
        single_error("x = f(a]\n").message,
        "closing `]` does not match `(`"
    );
    assert_eq!(
        single_error("x = 0x\n").message,
        "invalid hexadecimal literal"
    );
}

#[test]
fn three_errors_are_all_reported() {
    let source = "a = (1 +)\nb = 2\nc = [1, 2 3]\nd = b\ne = a << b\nprint(d)\n";
    let (module, diagnostics) = parse(source);
    let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected an expression, found `)`",
            "expected `]` to close `[`, found number `3`",
            "the shift operator `<<` is not supported",
        ]
    );
    // The statements around the errors still parse.
    assert_eq!(module.stmts.len(), 3);
}

#[test]
fn recovery_resumes_after_a_semicolon() {
    let (module, diagnostics) = parse("a = ); b = 2; c = 1 +; d = 4\n");
    assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");
    assert_eq!(module.stmts.len(), 2);
}

#[test]
fn diagnostics_are_in_source_order() {
    let (_, diagnostics) = parse("x = $\n  y = 1\nz = a << b\nw = 0x\n");
    let starts: Vec<u32> = diagnostics.iter().map(|d| d.span.start).collect();
    let mut sorted = starts.clone();
    sorted.sort();
    assert_eq!(starts, sorted);
    assert_eq!(diagnostics.len(), 4, "{diagnostics:#?}");
}

/// An unsupported block is reported once and skipped whole, body included; the
/// names it would bind are recorded so that the compiler does not report their
/// uses again (a `class` body's own names are local, so they are not).
#[test]
fn unsupported_blocks_are_skipped_and_their_names_recorded() {
    let source = "class Scale:\n    y = 1\n\
                  with open(f) as fh:\n    total = 2\n    total += 1\n\
                  z = total\n";
    let (module, diagnostics) = parse(source);
    let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["`class` is not supported", "`with` is not supported"]
    );
    // Only `z = total` is left: nothing of the bodies is parsed.
    assert_eq!(module.stmts.len(), 1, "{:#?}", module.stmts);
    let names: Vec<&str> = module
        .unsupported_bindings
        .iter()
        .map(|ident| ident.name.as_str())
        .collect();
    assert_eq!(names, ["Scale", "fh", "total", "total"]);
    let scale = &module.unsupported_bindings[0];
    assert_eq!(&source[scale.span.range()], "Scale");
}

/// Compound statements nest their bodies; `elif` chains, `else` clauses, one-line
/// bodies and unpacking targets keep their parts.
#[test]
fn blocks_parse_into_nested_statements() {
    let source = "def f(a, b=1):\n    for i, x in enumerate(a):\n        if i: continue\n        \
                  elif x: break\n        else:\n            pass\n    else:\n        return a\n\
                  while n < 3: n += 1\nz = f(1) if n else 2\n";
    let stmts = parse_clean(source);
    assert_eq!(stmts.len(), 3, "{stmts:#?}");
    let StmtKind::Def(def) = &stmts[0].kind else {
        panic!("not a def: {:?}", stmts[0].kind)
    };
    assert_eq!(def.name.name, "f");
    assert_eq!(def.params.len(), 2);
    assert!(def.params[1].default.is_some());
    assert_eq!(&source[def.header.range()], "def f(a, b=1)");
    let StmtKind::For {
        target,
        body,
        orelse,
        ..
    } = &def.body[0].kind
    else {
        panic!("not a for: {:?}", def.body[0].kind)
    };
    assert_eq!(target.names().len(), 2);
    let StmtKind::If {
        branches,
        orelse: if_else,
    } = &body[0].kind
    else {
        panic!("not an if: {:?}", body[0].kind)
    };
    assert_eq!(branches.len(), 2);
    assert!(matches!(branches[0].body[0].kind, StmtKind::Continue));
    assert!(matches!(branches[1].body[0].kind, StmtKind::Break));
    assert!(matches!(
        if_else.as_deref(),
        Some([Stmt {
            kind: StmtKind::Pass,
            ..
        }])
    ));
    assert!(matches!(
        orelse.as_deref(),
        Some([Stmt {
            kind: StmtKind::Return(Some(_)),
            ..
        }])
    ));
    assert!(matches!(stmts[1].kind, StmtKind::While { .. }));
    let StmtKind::Assign { value, .. } = &stmts[2].kind else {
        panic!("not an assignment")
    };
    assert_eq!(sexpr(value), "(if n (call f 1) 2)");
    // `in`, `not in`, `is`, `is not` are comparisons.
    assert_eq!(expression("a in b"), "(in a b)");
    assert_eq!(expression("a not in b"), "(not in a b)");
    assert_eq!(expression("a is not None"), "(is not a None)");
    assert_eq!(
        expression("[x * y for x, y in z if x if y for w in x]"),
        "(listcomp (* x y) for x,y in z if x if y for w in x)"
    );
    assert_eq!(
        expression("sum(x for x in y)"),
        "(call sum (listcomp x for x in y))"
    );
}

#[test]
fn a_skipped_body_at_the_end_of_the_file_needs_no_newline() {
    let (module, diagnostics) = parse("x = 1\nwith x:\n    y = i");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(module.stmts.len(), 1);
}

#[test]
fn fstrings_split_into_text_and_parsed_fields() {
    let (module, diagnostics) = parse("s = f'a{x + 1:>4}b{{c}}' \"d\" f\"{y!r}{ z[1:2] }\"\n");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let crate::ast::StmtKind::Assign { value, .. } = &module.stmts[0].kind else {
        panic!("not an assignment");
    };
    assert_eq!(
        sexpr(value),
        "(f \"a\" {(+ x 1):>4} \"b{c}d\" {y!r:} {(index z 1:2:):})"
    );
    // A field's expression keeps the source's spans.
    let crate::ast::ExprKind::FString(pieces) = &value.kind else {
        panic!("not an f-string");
    };
    let crate::ast::FPiece::Field { expr, .. } = &pieces[1] else {
        panic!("not a field");
    };
    assert_eq!(expr.span, Span::new(8, 13));
}

#[test]
fn fstring_errors_point_into_the_literal() {
    for (source, message, start) in [
        ("f'{}'\n", "f-string: empty expression not allowed", 2),
        ("f'a}'\n", "f-string: single '}' is not allowed", 3),
        (
            "f'{x!q}'\n",
            "f-string: invalid conversion character: expected 's', 'r', or 'a'",
            4,
        ),
        (
            "f'{x +}'\n",
            "expected an expression, found the end of the field",
            6,
        ),
    ] {
        let (_, diagnostics) = parse(source);
        assert_eq!(diagnostics.len(), 1, "{source}: {diagnostics:?}");
        assert_eq!(diagnostics[0].message, message, "{source}");
        assert_eq!(diagnostics[0].span.start as usize, start, "{source}");
    }
}
