//! Turns lalrpop's syntax errors into diagnostics a user can act on.
//!
//! lalrpop reports the offending token and the terminals it would have accepted; this
//! file reads those together with the surrounding tokens to say what went wrong in the
//! user's terms: "expected `)` to close `(`", "expected an expression, found `=`",
//! "missing parentheses in call to `print`".

use crate::diagnostic::Diagnostic;
use crate::lexer::{SpannedToken, Token};
use crate::parser::actions::SyntaxError;
use crate::span::Span;

/// What the parser knows about the whole file when it explains an error.
pub(crate) struct ErrorContext<'a, 'src> {
    source: &'src str,
    tokens: &'a [SpannedToken<'src>],
    /// Errors from this offset on are artefacts of a bracket left open at the end of
    /// the file, which the lexer has already reported.
    cutoff: Option<usize>,
}

impl<'a, 'src> ErrorContext<'a, 'src> {
    pub fn new(source: &'src str, tokens: &'a [SpannedToken<'src>], cutoff: Option<usize>) -> Self {
        ErrorContext {
            source,
            tokens,
            cutoff,
        }
    }

    /// The diagnostic for one syntax error, or `None` when it repeats one already made.
    pub fn diagnose(&self, error: SyntaxError<'src>) -> Option<Diagnostic> {
        match error {
            SyntaxError::UnrecognizedToken {
                token: (start, token, end),
                expected,
            } => self.unrecognized_token(start, &token, end, &Expected::new(&expected)),
            SyntaxError::UnrecognizedEof { location, expected } => {
                self.unexpected_end_of_file(location, &Expected::new(&expected))
            }
            SyntaxError::ExtraToken {
                token: (start, token, end),
            } => self.unrecognized_token(start, &token, end, &Expected::new(&[])),
            SyntaxError::InvalidToken { location } => Some(
                Diagnostic::error("invalid token", Span::new(location, location))
                    .with_label("not part of the language"),
            ),
            SyntaxError::User { error } => match error {},
        }
    }

    fn suppressed(&self, start: usize) -> bool {
        self.cutoff.is_some_and(|cutoff| start >= cutoff)
    }

    fn unexpected_end_of_file(&self, location: usize, expected: &Expected) -> Option<Diagnostic> {
        if self.suppressed(location) {
            return None;
        }
        let diagnostic = Diagnostic::error("unexpected end of file", Span::new(location, location));
        Some(match expected.summary() {
            Some(summary) => diagnostic.with_label(format!("expected {summary}")),
            None => diagnostic,
        })
    }

    fn unrecognized_token(
        &self,
        start: usize,
        token: &Token<'src>,
        end: usize,
        expected: &Expected,
    ) -> Option<Diagnostic> {
        // The lexer has already explained why this text is not a token.
        if *token == Token::Invalid || self.suppressed(start) {
            return None;
        }
        let span = Span::new(start, end);
        let found = token.describe(self.source.get(start..end).unwrap_or(""));
        let index = self.tokens.partition_point(|(at, _, _)| *at < start);
        if let Some(diagnostic) = self.print_statement(index, token) {
            return Some(diagnostic);
        }
        if *token == Token::LBrace {
            return Some(
                Diagnostic::error("dict and set literals are not supported yet", span)
                    .with_label("`{` starts a dict or a set")
                    .with_help("use a list `[...]` or a tuple `(...)`"),
            );
        }
        if expected.name && !token.starts_expression() {
            let diagnostic = missing_operand(expected, &found, span);
            return Some(if matches!(token, Token::Star | Token::DoubleStar) {
                diagnostic.with_help("unpacking with `*` and `**` is not supported yet")
            } else {
                diagnostic
            });
        }
        if let Some(diagnostic) = self.annotation(index, token, span) {
            return Some(diagnostic);
        }
        if let Some(diagnostic) = self.unclosed_bracket(index, token, &found, span, expected) {
            return Some(diagnostic);
        }
        Some(self.unexpected(index, token, &found, span, expected))
    }

    /// `print x`: Python 2's print statement.
    fn print_statement(&self, index: usize, token: &Token<'src>) -> Option<Diagnostic> {
        if !token.starts_expression() || index == 0 {
            return None;
        }
        let (print_start, previous, print_end) = &self.tokens[index - 1];
        if *previous != Token::Name("print") || !self.starts_statement(index - 1) {
            return None;
        }
        let arguments_start = self.tokens.get(index)?.0;
        let rest_of_line = self.source[arguments_start..]
            .lines()
            .next()
            .unwrap_or("")
            .trim_end()
            .trim_end_matches(';');
        let help = if rest_of_line.len() <= 40 {
            format!("write `print({rest_of_line})`")
        } else {
            "write `print(...)` with the values in parentheses".to_string()
        };
        Some(
            Diagnostic::error(
                "missing parentheses in call to `print`",
                Span::new(*print_start, *print_end),
            )
            .with_label("`print` is a function")
            .with_help(help),
        )
    }

    /// `x: int = 5`: a variable annotation.
    fn annotation(&self, index: usize, token: &Token<'src>, span: Span) -> Option<Diagnostic> {
        if *token != Token::Colon || index == 0 {
            return None;
        }
        let (_, previous, _) = &self.tokens[index - 1];
        let Token::Name(name) = previous else {
            return None;
        };
        if !self.starts_statement(index - 1) {
            return None;
        }
        Some(
            Diagnostic::error("variable annotations are not supported yet", span)
                .with_label("a type annotation")
                .with_help(format!("drop the type: write `{name} = value`")),
        )
    }

    /// Whether the token at `index` is the first of a statement.
    fn starts_statement(&self, index: usize) -> bool {
        index == 0 || matches!(self.tokens[index - 1].1, Token::Newline | Token::Semicolon)
    }

    /// Inside brackets where the closer would have been accepted.
    fn unclosed_bracket(
        &self,
        index: usize,
        token: &Token<'src>,
        found: &str,
        span: Span,
        expected: &Expected,
    ) -> Option<Diagnostic> {
        let (opener, open_span) = self.innermost_open_bracket(index)?;
        let closer = match opener {
            Token::LParen => ")",
            Token::LBracket => "]",
            _ => "}",
        };
        if !expected.contains(closer) {
            return None;
        }
        let opener_text = &self.source[open_span.range()];
        let label = if expected.contains(",") {
            format!("expected `,` or `{closer}`")
        } else {
            format!("expected `{closer}`")
        };
        let diagnostic = Diagnostic::error(
            format!("expected `{closer}` to close `{opener_text}`, found {found}"),
            span,
        )
        .with_label(label)
        .with_secondary(open_span, format!("`{opener_text}` opened here"));
        Some(if token.starts_expression() && expected.contains(",") {
            diagnostic.with_help("did you forget a comma?")
        } else if *token == Token::Assign {
            diagnostic.with_help("to compare two values, use `==`")
        } else {
            diagnostic
        })
    }

    /// The innermost bracket still open just before the token at `index`.
    fn innermost_open_bracket(&self, index: usize) -> Option<(Token<'src>, Span)> {
        let line_start = self.tokens[..index]
            .iter()
            .rposition(|(_, token, _)| *token == Token::Newline)
            .map_or(0, |newline| newline + 1);
        let mut open: Vec<(Token<'src>, Span)> = Vec::new();
        for (start, token, end) in &self.tokens[line_start..index] {
            match token {
                Token::LParen | Token::LBracket | Token::LBrace => {
                    open.push((token.clone(), Span::new(*start, *end)));
                }
                Token::RParen | Token::RBracket | Token::RBrace => {
                    open.pop();
                }
                _ => {}
            }
        }
        open.pop()
    }

    fn unexpected(
        &self,
        index: usize,
        token: &Token<'src>,
        found: &str,
        span: Span,
        expected: &Expected,
    ) -> Diagnostic {
        let mut diagnostic = Diagnostic::error(format!("unexpected {found}"), span);
        if let Some(summary) = expected.summary() {
            diagnostic = diagnostic.with_label(format!("expected {summary}"));
        }
        let in_import = self.tokens[..index]
            .iter()
            .rev()
            .take_while(|(_, token, _)| !matches!(token, Token::Newline | Token::Semicolon))
            .any(|(_, token, _)| *token == Token::Import);
        if in_import && matches!(token, Token::Name(_)) {
            diagnostic.with_help("write `import module.path as name`")
        } else if *token == Token::Assign {
            diagnostic.with_help("to compare two values, use `==`")
        } else if token.starts_expression() && expected.operator {
            diagnostic.with_help("did you forget an operator or a comma?")
        } else {
            diagnostic
        }
    }
}

/// `x = ` or `f(1, =)`: a place where an operand (or a name) must come.
fn missing_operand(expected: &Expected, found: &str, span: Span) -> Diagnostic {
    let what = if expected.literal {
        "an expression"
    } else {
        "a name"
    };
    Diagnostic::error(format!("expected {what}, found {found}"), span)
        .with_label(format!("expected {what}"))
}

/// The terminals lalrpop would have accepted, in a form easy to ask questions of.
struct Expected {
    terminals: Vec<String>,
    /// A name would do here.
    name: bool,
    /// Any literal would do: this is an expression position, not just a name.
    literal: bool,
    /// A binary operator would do: an operand has just ended.
    operator: bool,
}

impl Expected {
    fn new(raw: &[String]) -> Expected {
        // lalrpop quotes terminal names as Rust string literals: `"\")\""`.
        let terminals: Vec<String> = raw
            .iter()
            .map(|terminal| terminal.trim_matches('"').replace("\\\"", "\""))
            .collect();
        let has = |name: &str| terminals.iter().any(|t| t == name);
        Expected {
            name: has("name"),
            literal: has("int"),
            operator: has("*"),
            terminals,
        }
    }

    fn contains(&self, terminal: &str) -> bool {
        self.terminals.iter().any(|t| t == terminal)
    }

    /// "an operator, `,` or `)`" — a short phrase for the label under the caret.
    fn summary(&self) -> Option<String> {
        let mut parts: Vec<String> = Vec::new();
        if self.literal {
            parts.push("an expression".into());
        } else if self.name {
            parts.push("a name".into());
        }
        if self.operator {
            parts.push("an operator".into());
        }
        for punctuation in [",", ")", "]", "}", ":", "=", "as", "."] {
            // After an operand, `.` (attribute access) is always possible; not worth saying.
            let obvious = punctuation == "." && self.operator;
            if self.contains(punctuation) && !obvious {
                parts.push(format!("`{punctuation}`"));
            }
        }
        if self.contains("newline") {
            parts.push("the end of the statement".into());
        }
        let last = parts.pop()?;
        Some(if parts.is_empty() {
            last
        } else {
            format!("{} or {last}", parts.join(", "))
        })
    }
}
