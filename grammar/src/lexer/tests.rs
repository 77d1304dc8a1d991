//! Unit tests of the lexer wrapper: significant newlines, brackets, literals, errors.

use super::*;

fn tokens(source: &str) -> Vec<Token<'_>> {
    let lexed = tokenize(source);
    assert!(
        lexed.diagnostics.is_empty(),
        "unexpected diagnostics for {source:?}: {:?}",
        lexed.diagnostics
    );
    lexed
        .tokens
        .into_iter()
        .map(|(_, token, _)| token)
        .collect()
}

fn messages(source: &str) -> Vec<String> {
    tokenize(source)
        .diagnostics
        .into_iter()
        .map(|d| d.message)
        .collect()
}

#[test]
fn blank_and_comment_lines_yield_no_newlines() {
    let source = "\n# header\n\nx = 1  # trailing\n\n   # indented comment\ny\n";
    assert_eq!(
        tokens(source),
        vec![
            Token::Name("x"),
            Token::Assign,
            Token::Int(1),
            Token::Newline,
            Token::Name("y"),
            Token::Newline,
        ]
    );
}

#[test]
fn missing_final_newline_is_supplied_at_end_of_file() {
    let lexed = tokenize("x");
    assert_eq!(
        lexed.tokens,
        vec![(0, Token::Name("x"), 1), (1, Token::Newline, 1)]
    );
    assert!(tokenize("").tokens.is_empty());
    assert!(tokenize("\n\n# only a comment").tokens.is_empty());
}

#[test]
fn newlines_inside_brackets_are_joined() {
    let source = "f(1,\n  [2,\n 3],\n{\n})\n";
    let kinds = tokens(source);
    assert_eq!(kinds.iter().filter(|t| **t == Token::Newline).count(), 1);
    assert_eq!(kinds.last(), Some(&Token::Newline));
}

#[test]
fn backslash_continues_a_line() {
    assert_eq!(
        tokens("x = 1 + \\\n    2\n"),
        vec![
            Token::Name("x"),
            Token::Assign,
            Token::Int(1),
            Token::Plus,
            Token::Int(2),
            Token::Newline,
        ]
    );
    assert_eq!(tokens("x = 1 \\\r\n + 2\r\n").len(), 6);
    assert_eq!(tokens("x = 1 \\\r + 2\r").len(), 6);
}

#[test]
fn lone_carriage_returns_end_lines_as_in_python() {
    let expected = vec![
        Token::Name("x"),
        Token::Assign,
        Token::Int(1),
        Token::Newline,
        Token::Name("y"),
        Token::Newline,
    ];
    assert_eq!(tokens("x = 1\ry\r"), expected);
    assert_eq!(tokens("x = 1 # note\r\ry\r\n"), expected);
    assert_eq!(tokens("x = 1\r\r\ny"), expected);
    assert_eq!(
        tokens("s = 'a\\\rb'\r"),
        vec![
            Token::Name("s"),
            Token::Assign,
            Token::Str("ab".into()),
            Token::Newline
        ]
    );
}

#[test]
fn letters_glued_to_a_number_are_one_invalid_literal() {
    assert_eq!(messages("x = 3km"), vec!["invalid decimal literal"]);
    assert_eq!(messages("x = 1.5e+ 1"), vec!["invalid decimal literal"]);
    assert_eq!(messages("x = 0x1fg"), vec!["invalid hexadecimal literal"]);
    let lexed = tokenize("x = 3km + 1\n");
    assert_eq!(lexed.diagnostics[0].span, Span::new(4, 7));
    // A keyword may follow a number directly, as Python allows.
    assert_eq!(
        tokens("x = 1or 2"),
        vec![
            Token::Name("x"),
            Token::Assign,
            Token::Int(1),
            Token::Or,
            Token::Int(2),
            Token::Newline,
        ]
    );
}

#[test]
fn numbers() {
    assert_eq!(
        tokens("42 1_000_000 0x1f 0o17 0b101 0XFF"),
        vec![
            Token::Int(42),
            Token::Int(1_000_000),
            Token::Int(31),
            Token::Int(15),
            Token::Int(5),
            Token::Int(255),
            Token::Newline,
        ]
    );
    assert_eq!(
        tokens("1.5 .5 5. 1e-3 1_0.5 2E+2 1.e2"),
        vec![
            Token::Float(1.5),
            Token::Float(0.5),
            Token::Float(5.0),
            Token::Float(0.001),
            Token::Float(10.5),
            Token::Float(200.0),
            Token::Float(100.0),
            Token::Newline,
        ]
    );
}

#[test]
fn ellipsis_dots_and_floats_are_told_apart() {
    assert_eq!(
        tokens("a[..., .5]"),
        vec![
            Token::Name("a"),
            Token::LBracket,
            Token::Ellipsis,
            Token::Comma,
            Token::Float(0.5),
            Token::RBracket,
            Token::Newline,
        ]
    );
    assert_eq!(
        tokens("x.T"),
        vec![
            Token::Name("x"),
            Token::Dot,
            Token::Name("T"),
            Token::Newline
        ]
    );
}

#[test]
fn strings() {
    assert_eq!(
        tokens(r#"'a' "b\n" r'\d' '''x'y''' """q""" '' u'é'"#),
        vec![
            Token::Str("a".into()),
            Token::Str("b\n".into()),
            Token::Str("\\d".into()),
            Token::Str("x'y".into()),
            Token::Str("q".into()),
            Token::Str("".into()),
            Token::Str("é".into()),
            Token::Newline,
        ]
    );
}

#[test]
fn keywords_and_operators() {
    assert_eq!(
        tokens("import a as b; not x and y or True is_ None False"),
        vec![
            Token::Import,
            Token::Name("a"),
            Token::As,
            Token::Name("b"),
            Token::Semicolon,
            Token::Not,
            Token::Name("x"),
            Token::And,
            Token::Name("y"),
            Token::Or,
            Token::True,
            Token::Name("is_"),
            Token::None,
            Token::False,
            Token::Newline,
        ]
    );
    let operators = "+ - * / // % ** @ & | ^ ~ < <= > >= == != = += -= *= /= //= %= **= @= , : .";
    let kinds = tokens(operators);
    assert_eq!(kinds.len(), 31);
    assert!(!kinds.contains(&Token::Invalid));
}

#[test]
fn unicode_names() {
    assert_eq!(
        tokens("σ = x"),
        vec![
            Token::Name("σ"),
            Token::Assign,
            Token::Name("x"),
            Token::Newline
        ]
    );
}

#[test]
fn spans_are_byte_offsets() {
    let lexed = tokenize("σ = 'é'\n");
    let spans: Vec<(usize, usize)> = lexed.tokens.iter().map(|(l, _, r)| (*l, *r)).collect();
    assert_eq!(spans, vec![(0, 2), (3, 4), (5, 9), (9, 10)]);
}

#[test]
fn indentation_outside_a_block_is_an_error_with_help() {
    let lexed = tokenize("x = 1\n    y = 2\n");
    assert_eq!(lexed.diagnostics.len(), 1);
    let diagnostic = &lexed.diagnostics[0];
    assert_eq!(diagnostic.message, "unexpected indentation");
    assert_eq!(diagnostic.span, Span::new(6, 10));
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("only the body of a block (after a line that ends with `:`) is indented")
    );
    // Indentation inside brackets or after a continuation is fine.
    assert!(tokenize("f(1,\n    2)\nx = 1 + \\\n    2\n")
        .diagnostics
        .is_empty());
}

#[test]
fn blocks_become_indent_and_dedent_tokens() {
    use Token::*;
    let source = "for i in r:\n    if i:\n\n        x = 1\n    # c\n    y = 2\nz\n";
    assert_eq!(
        tokens(source),
        vec![
            For,
            Name("i"),
            In,
            Name("r"),
            Colon,
            Newline,
            Indent,
            If,
            Name("i"),
            Colon,
            Newline,
            Indent,
            Name("x"),
            Assign,
            Int(1),
            Newline,
            Dedent,
            Name("y"),
            Assign,
            Int(2),
            Newline,
            Dedent,
            Name("z"),
            Newline,
        ]
    );
    // Open blocks close at the end of the file; a tab indents to the next multiple of 8.
    assert_eq!(
        tokens("def f():\n\treturn 1"),
        vec![
            Def,
            Name("f"),
            LParen,
            RParen,
            Colon,
            Newline,
            Indent,
            Return,
            Int(1),
            Newline,
            Dedent
        ]
    );
    // Indentation inside brackets is not a block.
    assert_eq!(
        tokens("if x:\n    f(1,\n  2)\n")
            .iter()
            .filter(|t| **t == Indent)
            .count(),
        1
    );
}

#[test]
fn block_indentation_errors() {
    assert_eq!(messages("if x:\ny = 1\n"), ["expected an indented block"]);
    assert_eq!(
        messages("if x:\n    if y:\n        a\n  b\n"),
        ["unindent does not match any outer indentation level"]
    );
}

#[test]
fn unsupported_keywords_and_shifts() {
    for source in ["lambda: 1", "a << 2", "a >> 2", "from a import b", "del x"] {
        let found = messages(source);
        assert_eq!(found.len(), 1, "{source}");
        assert!(found[0].ends_with("not supported"), "{}", found[0]);
    }
    let lexed = tokenize("with x");
    assert_eq!(lexed.tokens[0].1, Token::Invalid);
}

#[test]
fn imaginary_literals_as_python_reads_them() {
    assert_eq!(
        tokens("2j 1.5J 1e3j .5j 010j 1_0j"),
        vec![
            Token::Imaginary(2.0),
            Token::Imaginary(1.5),
            Token::Imaginary(1000.0),
            Token::Imaginary(0.5),
            Token::Imaginary(10.0),
            Token::Imaginary(10.0),
            Token::Newline,
        ]
    );
}

#[test]
fn literal_errors() {
    assert_eq!(
        messages("9223372036854775808"),
        ["integer literal is too large"]
    );
    assert!(tokens("9223372036854775807").contains(&Token::Int(i64::MAX)));
    assert_eq!(messages("x = 'abc\ny = 2"), ["unterminated string literal"]);
    assert_eq!(
        messages("x = '''abc\ny = 2"),
        ["unterminated string literal"]
    );
    assert_eq!(messages("x = $"), ["unexpected character `$`"]);
    assert_eq!(messages("x = 1 \\ 2"), ["unexpected character `\\`"]);
}

#[test]
fn unterminated_string_does_not_swallow_the_next_line() {
    let lexed = tokenize("print('abc)\nx = 1\n");
    assert_eq!(lexed.diagnostics.len(), 1);
    assert_eq!(lexed.diagnostics[0].span, Span::new(6, 7));
    assert_eq!(
        lexed
            .tokens
            .iter()
            .filter(|t| t.1 == Token::Newline)
            .count(),
        2
    );
}

#[test]
fn bracket_errors() {
    assert_eq!(messages("x = 1)"), ["unmatched `)`"]);
    assert_eq!(messages("f(a]"), ["closing `]` does not match `(`"]);
    let lexed = tokenize("x = f(a,\ny = 2\n");
    assert_eq!(lexed.diagnostics.len(), 1);
    assert_eq!(lexed.diagnostics[0].message, "unclosed `(`");
    assert_eq!(lexed.diagnostics[0].span, Span::new(5, 6));
    assert_eq!(lexed.unclosed_bracket_cutoff, Some(8));
}

#[test]
fn interactive_continuation() {
    assert!(needs_more_input("f(1,"));
    assert!(needs_more_input("x = 1 + \\"));
    assert!(needs_more_input("x = 1 + \\\n"));
    assert!(needs_more_input("x = 1 + \\\r\n  "));
    assert!(!needs_more_input("x = 1  # comment \\\n"));
    assert!(!needs_more_input("x = 1 \\ 2"));
    assert!(needs_more_input("s = '''abc"));
    assert!(!needs_more_input("x = 1"));
    // A block: after its header, while its body is indented, until a blank line.
    assert!(needs_more_input("for i in range(3):\n"));
    assert!(needs_more_input("for i in range(3):\n    print(i)\n"));
    assert!(!needs_more_input("for i in range(3):\n    print(i)\n\n"));
    assert!(needs_more_input("if x:\n    a = 1\nelse:\n"));
    assert!(!needs_more_input("if x: a = 1\n"));
    assert!(!needs_more_input("x = d[1:\n2]\n"));
    assert!(!needs_more_input("x = (1)\n"));
}

#[test]
fn every_python_keyword_outside_the_language_is_named() {
    let keywords = "lambda class with try except finally raise del global nonlocal yield \
                    from async await << >>";
    for keyword in keywords.split_whitespace() {
        let source = format!("x = a {keyword} b\n");
        let lexed = tokenize(&source);
        assert_eq!(lexed.diagnostics.len(), 1, "{keyword}");
        let diagnostic = &lexed.diagnostics[0];
        assert!(
            diagnostic.message.contains(&format!("`{keyword}`"))
                && diagnostic.message.ends_with("not supported"),
            "{keyword}: {}",
            diagnostic.message
        );
        assert_eq!(&source[diagnostic.span.range()], keyword);
        assert!(diagnostic.help.is_some(), "{keyword}");
    }
    // Names that merely start like keywords are names.
    assert_eq!(tokens("iffy")[0], Token::Name("iffy"));
    assert_eq!(tokens("format")[0], Token::Name("format"));
}
