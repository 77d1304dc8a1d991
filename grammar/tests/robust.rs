//! No input crashes or hangs the parser: random token soup and random mutations of
//! realistic scripts always give back a module and diagnostics whose spans lie inside
//! the source, on character boundaries.

use std::time::{Duration, Instant};

use marsc_grammar::{dump_ast, parse, Span};
use proptest::prelude::*;

/// Scripts in the shape users write, as the seeds of mutation.
const SCRIPTS: &[&str] = &[
    include_str!("../../tests/cases/parse/ok/readme_example.mt"),
    include_str!("../../tests/cases/parse/ok/brackets_span_lines.mt"),
    include_str!("../../tests/cases/parse/ok/strings_and_escapes.mt"),
    include_str!("../../tests/cases/parse/ok/slices_and_indexing.mt"),
    include_str!("../../tests/cases/parse/ok/line_continuation.mt"),
    include_str!("../../tests/cases/parse/err/several_errors.mt"),
];

/// Fragments that stress the lexer and parser, valid and not.
const FRAGMENTS: &[&str] = &[
    "x",
    "mt",
    "print",
    "σ",
    "_a1",
    "42",
    "0x1f",
    "0x",
    "1_000",
    "1e-3",
    ".5",
    "5.",
    "1j",
    "9223372036854775808",
    "017",
    "'s'",
    "\"d\"",
    "'",
    "\"",
    "'''",
    "\"\"\"",
    "r'\\n'",
    "f'x'",
    "'\\x4'",
    "'\\N{X}'",
    "\\",
    "\\\n",
    "\n",
    "\r\n",
    "\r",
    "    ",
    "\t",
    "#c\n",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ".",
    ";",
    "...",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "@",
    "&",
    "|",
    "^",
    "~",
    "+=",
    "-=",
    "**=",
    "@=",
    "//=",
    "<<",
    ">>",
    ":=",
    "->",
    "!",
    "$",
    "?",
    "`",
    "\u{201c}",
    "\u{feff}",
    "import",
    "as",
    "and",
    "or",
    "not",
    "True",
    "False",
    "None",
    "def",
    "if",
    "else",
    "for",
    "in",
    "is",
    "lambda",
    "from",
    "return",
    "é",
    "数",
    "\u{0}",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(FRAGMENTS), any::<bool>()), 0..80).prop_map(
        |parts| {
            let mut source = String::new();
            for (fragment, space) in parts {
                source.push_str(fragment);
                if space {
                    source.push(' ');
                }
            }
            source
        },
    )
}

/// One edit of a script's bytes or lines.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteBytes { at: usize, len: usize },
    InsertFragment { at: usize, fragment: &'static str },
    FlipByte { at: usize, value: u8 },
    DuplicateLine { line: usize },
    SwapLines { first: usize, second: usize },
    Truncate { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..12usize).prop_map(|(at, len)| Mutation::DeleteBytes { at, len }),
        (any::<usize>(), prop::sample::select(FRAGMENTS))
            .prop_map(|(at, fragment)| Mutation::InsertFragment { at, fragment }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Mutation::FlipByte { at, value }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        (any::<usize>(), any::<usize>())
            .prop_map(|(first, second)| Mutation::SwapLines { first, second }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

fn apply(source: &str, mutation: &Mutation) -> String {
    let mut bytes = source.as_bytes().to_vec();
    let position = |at: usize, len: usize| if len == 0 { 0 } else { at % (len + 1) };
    match mutation {
        Mutation::DeleteBytes { at, len } => {
            let start = position(*at, bytes.len());
            let end = (start + len).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::InsertFragment { at, fragment } => {
            let at = position(*at, bytes.len());
            bytes.splice(at..at, fragment.bytes());
        }
        Mutation::FlipByte { at, value } => {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = *value;
            }
        }
        Mutation::Truncate { at } => bytes.truncate(position(*at, bytes.len())),
        Mutation::DuplicateLine { line } => {
            let mut lines: Vec<&str> = source.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let line = line % lines.len();
                lines.insert(line, lines[line]);
            }
            return lines.concat();
        }
        Mutation::SwapLines { first, second } => {
            let mut lines: Vec<&str> = source.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let count = lines.len();
                lines.swap(first % count, second % count);
            }
            return lines.concat();
        }
    }
    // Byte edits can split a character; the parser takes text, so repair it.
    String::from_utf8_lossy(&bytes).into_owned()
}

fn mutated_script() -> impl Strategy<Value = String> {
    (
        prop::sample::select(SCRIPTS),
        prop::collection::vec(mutation(), 1..6),
    )
        .prop_map(|(script, mutations)| {
            mutations
                .iter()
                .fold(script.to_string(), |source, m| apply(&source, m))
        })
}

fn span_is_valid(source: &str, span: Span) -> bool {
    let (start, end) = (span.start as usize, span.end as usize);
    start <= end
        && end <= source.len()
        && source.is_char_boundary(start)
        && source.is_char_boundary(end)
}

fn check(source: &str) -> Result<Vec<marsc_grammar::Diagnostic>, TestCaseError> {
    let started = Instant::now();
    let (module, diagnostics) = parse(source);
    let _ = dump_ast(&module, source);
    prop_assert!(
        started.elapsed() < Duration::from_secs(2),
        "parsing took {:?}",
        started.elapsed()
    );
    for diagnostic in &diagnostics {
        prop_assert!(!diagnostic.message.is_empty());
        prop_assert!(
            span_is_valid(source, diagnostic.span),
            "bad span {:?} for {:?} in {source:?}",
            diagnostic.span,
            diagnostic.message
        );
        for (span, _) in &diagnostic.secondary {
            prop_assert!(span_is_valid(source, *span), "bad secondary span {span:?}");
        }
    }
    let starts: Vec<u32> = diagnostics.iter().map(|d| d.span.start).collect();
    prop_assert!(
        starts.windows(2).all(|pair| pair[0] <= pair[1]),
        "not in source order"
    );
    for stmt in &module.stmts {
        prop_assert!(span_is_valid(source, stmt.span), "bad statement span");
    }
    Ok(diagnostics)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 250, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_breaks_the_parser(source in token_soup()) {
        check(&source)?;
    }

    #[test]
    fn mutated_scripts_never_break_the_parser(source in mutated_script()) {
        check(&source)?;
    }
}

/// Inputs nested far beyond any real script: each must give one "too deep" error
/// instead of overflowing the stack (test threads have small stacks, which makes
/// this stricter than a real run).
#[test]
fn absurd_nesting_is_reported_not_crashed_on() {
    let n = 100_000;
    let sources = [
        format!("x{}", " + x".repeat(n)),
        format!("{}x", "-".repeat(n)),
        format!("{}x", "not ".repeat(n)),
        format!("x{}", " ** x".repeat(n)),
        format!("{}x{}", "[".repeat(n), "]".repeat(n)),
        format!("{}x{}", "f(".repeat(n), ")".repeat(n)),
        format!("{}x{}", "(-".repeat(n), ")".repeat(n)),
        format!("x{}", ".a".repeat(n)),
        format!("x{}", "[0]".repeat(n)),
        format!("y = x{} + )", " + x".repeat(n)),
    ];
    for source in &sources {
        let diagnostics = check(source).unwrap();
        let too_deep = diagnostics
            .iter()
            .filter(|d| d.message == "expression is nested too deeply")
            .count();
        assert_eq!(too_deep, 1, "{}...: {diagnostics:?}", &source[..20]);
    }
}

#[test]
fn pathological_inputs() {
    let deep_brackets = "(".repeat(5000) + &")".repeat(5000);
    let unclosed = "[".repeat(5000);
    let many_errors = ")\n".repeat(5000);
    let long_chain = "x".to_string() + &" < x".repeat(2000);
    for source in [
        deep_brackets.as_str(),
        unclosed.as_str(),
        many_errors.as_str(),
        long_chain.as_str(),
        "\u{feff}x = 1",
        "\u{feff}",
        "\0",
        "'''",
        "\\",
        "x = 1 \\",
    ] {
        check(source).unwrap();
    }
}
