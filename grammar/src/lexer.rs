//! Tokens of the `.mt` language and the lexer that produces them for the parser.
//!
//! logos (in `raw.rs`) recognises the raw tokens; the [`Lexer`] wrapper adds what
//! needs context: newlines are significant only outside brackets, blank lines yield
//! nothing, indentation becomes [`Token::Indent`] / [`Token::Dedent`] tokens as in
//! Python (a body is indented after a line that ends with `:`; any other indented
//! line is an error), literals get their values, and lexical errors become
//! diagnostics.
//!
//! A lexical error never stops the token stream: the offending text becomes one
//! [`Token::Invalid`] (already reported), so the parser can recover at the next
//! statement and every error in the file is found in one run.

mod literals;
mod raw;
mod token;
mod unsupported;

use std::collections::VecDeque;
use std::ops::Range;

use logos::Logos;

use crate::diagnostic::Diagnostic;
use crate::span::Span;
use literals::Radix;
use raw::{RawToken, StringEnd};
use token::plain_token;
pub use token::Token;
use unsupported::{BlockBindings, UnsupportedBlocks};

use crate::ast::Ident;

/// A token with its byte span, in the shape lalrpop expects from an external lexer.
pub type SpannedToken<'src> = (usize, Token<'src>, usize);

/// Everything the lexer learned about one source text.
#[derive(Clone, Debug, Default)]
pub struct Lexed<'src> {
    pub tokens: Vec<SpannedToken<'src>>,
    /// Lexical errors, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
    /// When a bracket is still open at the end of the file, the offset from which the
    /// rest of the file was swallowed into it; parse errors from there on are noise.
    pub unclosed_bracket_cutoff: Option<usize>,
    /// Names bound by unsupported block headers and their skipped bodies.
    pub unsupported_bindings: Vec<Ident>,
}

/// Lexes a whole source text.
pub fn tokenize(source: &str) -> Lexed<'_> {
    let mut lexer = Lexer::new(source);
    let tokens = lexer.by_ref().collect();
    Lexed {
        tokens,
        diagnostics: lexer.diagnostics,
        unclosed_bracket_cutoff: lexer.unclosed_bracket_cutoff,
        unsupported_bindings: lexer.bindings.found,
    }
}

/// True when `source` ends inside an open bracket, a triple-quoted string or after a
/// line continuation, so that an interactive reader should ask for another line.
///
/// A block asks for more lines after its header (`for i in range(3):`) and while its
/// body's lines are indented; a blank line (or a line back at the block's level)
/// ends it, as at Python's interactive prompt.
pub fn needs_more_input(source: &str) -> bool {
    let mut lexer = Lexer::new(source);
    lexer.by_ref().for_each(drop);
    lexer.ended_inside_bracket
        || lexer.ended_inside_triple_quote
        || lexer.ends_in_continuation()
        || lexer.block_expected
        || last_line_indented(source)
}

/// Whether the text's last line (before a final line break) is indented and not blank.
fn last_line_indented(source: &str) -> bool {
    let body = source
        .strip_suffix("\r\n")
        .or_else(|| source.strip_suffix('\n'))
        .or_else(|| source.strip_suffix('\r'))
        .unwrap_or(source);
    let last_line_start = body.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let last_line = &body[last_line_start..];
    last_line.starts_with([' ', '\t']) && !last_line.trim().is_empty()
}

/// An opening bracket that has not been closed yet.
#[derive(Clone, Copy, Debug)]
struct OpenBracket {
    opener: char,
    span: Span,
}

fn closer_of(opener: char) -> char {
    match opener {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// The lexer the parser pulls tokens from; see the module documentation.
pub struct Lexer<'src> {
    source: &'src str,
    raw: logos::Lexer<'src, RawToken>,
    brackets: Vec<OpenBracket>,
    /// Offset of the first newline swallowed inside the outermost open bracket.
    newline_inside_brackets: Option<usize>,
    /// Offset where the current physical line starts.
    line_start: usize,
    /// No token has been produced yet on the current logical line.
    at_logical_line_start: bool,
    /// Where the first token of the current logical line starts.
    line_first_token: usize,
    unsupported_blocks: UnsupportedBlocks,
    /// The current logical line is the body of an unsupported block: its tokens
    /// are dropped, so that none of it is parsed or lowered.
    skipping_body_line: bool,
    bindings: BlockBindings,
    finished: bool,
    diagnostics: Vec<Diagnostic>,
    unclosed_bracket_cutoff: Option<usize>,
    ended_inside_bracket: bool,
    ended_inside_triple_quote: bool,
    /// The span of the last token read from the source (the final newline made up
    /// at the end of the file does not count).
    last_token: Range<usize>,
    /// The indentation widths of the open blocks, innermost last; `[0]` at top level.
    indents: Vec<usize>,
    /// The last logical line ended with `:`: the next line must be indented deeper.
    block_expected: bool,
    /// The last token given to the parser was `:`.
    after_colon: bool,
    /// Tokens made up before the next one from the source (indents and dedents).
    pending: VecDeque<SpannedToken<'src>>,
}

impl<'src> Lexer<'src> {
    pub fn new(source: &'src str) -> Lexer<'src> {
        let mut raw = RawToken::lexer(source);
        // A byte-order mark is not indentation; step over it.
        let line_start = if source.starts_with('\u{feff}') {
            raw.bump('\u{feff}'.len_utf8());
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        Lexer {
            source,
            raw,
            brackets: Vec::new(),
            newline_inside_brackets: None,
            line_start,
            at_logical_line_start: true,
            line_first_token: 0,
            unsupported_blocks: UnsupportedBlocks::default(),
            skipping_body_line: false,
            bindings: BlockBindings::default(),
            finished: false,
            diagnostics: Vec::new(),
            unclosed_bracket_cutoff: None,
            ended_inside_bracket: false,
            ended_inside_triple_quote: false,
            last_token: 0..0,
            indents: vec![0],
            block_expected: false,
            after_colon: false,
            pending: VecDeque::new(),
        }
    }

    /// Whether the text ends with a `\` that asks for another line: either a
    /// continuation already joined to an empty last line, or a final lone `\`.
    fn ends_in_continuation(&self) -> bool {
        let blank = [' ', '\t', '\x0c', '\r', '\n'];
        let after = self.source[self.last_token.end..].trim_start_matches(blank);
        let last = &self.source[self.last_token.clone()];
        after.starts_with('\\') || (last == "\\" && after.is_empty())
    }

    /// The lexical errors found so far, in the order they were found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    fn error(&mut self, diagnostic: Diagnostic) -> Token<'src> {
        self.diagnostics.push(diagnostic);
        Token::Invalid
    }

    /// A physical newline: significant only outside brackets and after some token.
    fn newline(&mut self, span: Range<usize>) -> Option<SpannedToken<'src>> {
        self.line_start = span.end;
        if !self.brackets.is_empty() {
            self.newline_inside_brackets.get_or_insert(span.start);
            return None;
        }
        if self.at_logical_line_start {
            return None;
        }
        self.at_logical_line_start = true;
        self.unsupported_blocks.statement_ended();
        self.bindings.statement_ended();
        if std::mem::take(&mut self.skipping_body_line) {
            return None;
        }
        self.block_expected = std::mem::take(&mut self.after_colon);
        Some((span.start, Token::Newline, span.end))
    }

    fn check_indentation(&mut self, token_start: usize) {
        if !self.at_logical_line_start {
            return;
        }
        self.at_logical_line_start = false;
        self.line_first_token = token_start;
        let width = indentation_width(&self.source[self.line_start..token_start]);
        let explained = self.unsupported_blocks.line_started(width);
        self.skipping_body_line = explained;
        if explained {
            self.block_expected = false;
            return;
        }
        let block_expected = std::mem::take(&mut self.block_expected);
        let indentation = Span::new(self.line_start, token_start);
        let top = self.indents.last().copied().unwrap_or(0);
        if width > top {
            if block_expected {
                self.indents.push(width);
                self.pending
                    .push_back((self.line_start, Token::Indent, token_start));
            } else {
                self.diagnostics.push(
                    Diagnostic::error("unexpected indentation", indentation)
                        .with_label("this line is indented")
                        .with_help(
                            "only the body of a block (after a line that ends with `:`) is indented",
                        ),
                );
            }
            return;
        }
        if block_expected {
            self.diagnostics.push(
                Diagnostic::error(
                    "expected an indented block",
                    Span::new(token_start, token_start),
                )
                .with_label("this line should be indented")
                .with_help("indent the body of the block under the line that ends with `:`"),
            );
        }
        while width < self.indents.last().copied().unwrap_or(0) {
            self.indents.pop();
            self.pending
                .push_back((token_start, Token::Dedent, token_start));
        }
        if width != self.indents.last().copied().unwrap_or(0) {
            self.diagnostics.push(
                Diagnostic::error(
                    "unindent does not match any outer indentation level",
                    indentation,
                )
                .with_label("this line's indentation")
                .with_help("indent it as far as the block it belongs to"),
            );
        }
    }

    fn end_of_file(&mut self) -> Option<SpannedToken<'src>> {
        if self.finished {
            return None;
        }
        self.finished = true;
        if let Some(outermost) = self.brackets.first().copied() {
            self.ended_inside_bracket = true;
            let closer = closer_of(outermost.opener);
            self.diagnostics.push(
                Diagnostic::error(format!("unclosed `{}`", outermost.opener), outermost.span)
                    .with_label(format!("this `{}` is never closed", outermost.opener))
                    .with_help(format!("add `{closer}` where the expression ends")),
            );
            self.unclosed_bracket_cutoff =
                Some(self.newline_inside_brackets.unwrap_or(self.source.len()));
            self.brackets.clear();
        }
        let end = self.source.len();
        let newline = !(self.at_logical_line_start || std::mem::take(&mut self.skipping_body_line));
        if newline {
            self.at_logical_line_start = true;
            self.block_expected = std::mem::take(&mut self.after_colon);
            self.pending.push_back((end, Token::Newline, end));
        }
        while self.indents.len() > 1 {
            self.indents.pop();
            self.pending.push_back((end, Token::Dedent, end));
        }
        self.pending.pop_front()
    }

    fn token(&mut self, raw: Result<RawToken, ()>, span: Range<usize>) -> Token<'src> {
        let text = &self.source[span.clone()];
        let raw = match raw {
            Ok(raw) => raw,
            Err(()) => return self.unexpected_character(text, span),
        };
        if let Some(diagnostic) = self.letters_after_number(raw, &span) {
            return self.error(diagnostic);
        }
        match raw {
            RawToken::Name => Token::Name(text),
            RawToken::DecimalInt => self.int(text, Radix::Decimal, span.start),
            RawToken::HexInt => self.int(text, Radix::Hex, span.start),
            RawToken::OctalInt => self.int(text, Radix::Octal, span.start),
            RawToken::BinaryInt => self.int(text, Radix::Binary, span.start),
            RawToken::Float => match literals::parse_float(text, span.start) {
                Ok(value) => Token::Float(value),
                Err(diagnostic) => self.error(*diagnostic),
            },
            RawToken::RadixPrefixWithoutDigits => self.error(radix_without_digits(text, &span)),
            // Python reads the digits before the `j` as a float (`010j` is 10j).
            RawToken::Imaginary => match literals::parse_float(&text[..text.len() - 1], span.start)
            {
                Ok(value) => Token::Imaginary(value),
                Err(diagnostic) => self.error(*diagnostic),
            },
            RawToken::Str(end) => self.string(text, span, end),
            RawToken::Unsupported => {
                let first_on_line = span.start == self.line_first_token;
                if !self.skipping_body_line {
                    self.bindings.keyword(text, first_on_line);
                }
                if self.unsupported_blocks.should_report(text, first_on_line) {
                    let span = Span::new(span.start, span.end);
                    self.error(unsupported::unsupported_syntax(text, span))
                } else {
                    Token::Invalid
                }
            }
            RawToken::Semicolon => {
                self.unsupported_blocks.statement_ended();
                self.bindings.statement_ended();
                Token::Semicolon
            }
            RawToken::LParen => self.open('(', span),
            RawToken::LBracket => self.open('[', span),
            RawToken::LBrace => self.open('{', span),
            RawToken::RParen => self.close(')', span),
            RawToken::RBracket => self.close(']', span),
            RawToken::RBrace => self.close('}', span),
            other => plain_token(other),
        }
    }

    fn int(&mut self, text: &str, radix: Radix, start: usize) -> Token<'src> {
        match literals::parse_int(text, radix, start) {
            Ok(value) => Token::Int(value),
            Err(diagnostic) => self.error(*diagnostic),
        }
    }

    fn string(&mut self, text: &'src str, span: Range<usize>, end: StringEnd) -> Token<'src> {
        let prefix = &text[..text.find(['\'', '"']).unwrap_or(0)];
        if end == StringEnd::Closed
            && matches!(prefix.to_ascii_lowercase().as_str(), "f" | "fr" | "rf")
        {
            return self.fstring(text, span);
        }
        match end {
            StringEnd::Closed => match literals::decode_string(text, span.start) {
                Ok(value) => Token::Str(value),
                Err(diagnostic) => self.error(*diagnostic),
            },
            StringEnd::Unterminated => self.unterminated_string(text, span),
        }
    }

    /// An f-string: its text split into literal pieces and fields, each field's
    /// expression parsed on its own (its spans are the source's).
    fn fstring(&mut self, text: &'src str, span: Range<usize>) -> Token<'src> {
        let raw_pieces = match literals::split_fstring(text, span.start) {
            Ok(pieces) => pieces,
            Err(diagnostic) => return self.error(*diagnostic),
        };
        let mut pieces = Vec::with_capacity(raw_pieces.len());
        for piece in raw_pieces {
            match piece {
                literals::RawPiece::Text(text) => pieces.push(crate::ast::FPiece::Text(text)),
                literals::RawPiece::Field {
                    expr,
                    debug,
                    conversion,
                    spec,
                } => match crate::parser::parse_expression_at(self.source, expr) {
                    Ok(expr) => pieces.push(crate::ast::FPiece::Field {
                        expr: Box::new(expr),
                        debug,
                        conversion,
                        spec,
                    }),
                    Err(diagnostics) => {
                        self.diagnostics.extend(diagnostics);
                        return Token::Invalid;
                    }
                },
            }
        }
        Token::FString(pieces)
    }

    fn unterminated_string(&mut self, text: &str, span: Range<usize>) -> Token<'src> {
        let prefix_len = text.find(['\'', '"']).unwrap_or(0);
        let quoted = &text[prefix_len..];
        let triple = quoted.starts_with("'''") || quoted.starts_with("\"\"\"");
        let quote_len = if triple { 3 } else { 1 };
        let opening = &quoted[..quote_len.min(quoted.len())];
        let help = if triple {
            self.ended_inside_triple_quote = true;
            format!("close the string with `{opening}`")
        } else {
            format!("close the string with `{opening}` before the end of the line")
        };
        // The rest of the line went into the string, closing brackets included; forget
        // the brackets so that this line's newline still ends the statement.
        self.brackets.clear();
        self.newline_inside_brackets = None;
        self.error(
            Diagnostic::error(
                "unterminated string literal",
                Span::new(span.start, span.start + prefix_len + opening.len()),
            )
            .with_label("this string is never closed")
            .with_help(help),
        )
    }

    fn open(&mut self, opener: char, span: Range<usize>) -> Token<'src> {
        if self.brackets.is_empty() {
            self.newline_inside_brackets = None;
        }
        self.brackets.push(OpenBracket {
            opener,
            span: Span::new(span.start, span.end),
        });
        match opener {
            '(' => Token::LParen,
            '[' => Token::LBracket,
            _ => Token::LBrace,
        }
    }

    fn close(&mut self, closer: char, span: Range<usize>) -> Token<'src> {
        let span = Span::new(span.start, span.end);
        let Some(innermost) = self.brackets.last().copied() else {
            return self.error(
                Diagnostic::error(format!("unmatched `{closer}`"), span)
                    .with_label("nothing here to close"),
            );
        };
        if closer_of(innermost.opener) == closer {
            self.brackets.pop();
            return match closer {
                ')' => Token::RParen,
                ']' => Token::RBracket,
                _ => Token::RBrace,
            };
        }
        // Either an inner bracket was left open (pop through the match) or this closer
        // is a typo for the right one (pop just the innermost).
        let matching = self
            .brackets
            .iter()
            .rposition(|open| closer_of(open.opener) == closer);
        self.brackets
            .truncate(matching.unwrap_or(self.brackets.len() - 1));
        let expected = closer_of(innermost.opener);
        self.error(
            Diagnostic::error(
                format!("closing `{closer}` does not match `{}`", innermost.opener),
                span,
            )
            .with_label(format!("expected `{expected}`"))
            .with_secondary(
                innermost.span,
                format!("`{}` opened here", innermost.opener),
            )
            .with_help(format!("close `{}` with `{expected}`", innermost.opener)),
        )
    }

    fn unexpected_character(&mut self, text: &str, span: Range<usize>) -> Token<'src> {
        let at_end_of_file = span.end == self.source.len();
        let span = Span::new(span.start, span.end);
        let shown = text.chars().next().unwrap_or(' ');
        if shown == '\\' && at_end_of_file {
            return self.error(
                Diagnostic::error("unexpected end of file after `\\`", span)
                    .with_label("a line continuation with no line after it")
                    .with_help("remove the `\\`, or continue the statement on a next line"),
            );
        }
        if is_invisible(shown) {
            let diagnostic = Diagnostic::error(
                format!("invalid non-printable character U+{:04X}", u32::from(shown)),
                span,
            )
            .with_label("an invisible character");
            let help = if shown.is_whitespace() {
                "use plain spaces between tokens"
            } else if shown.is_control() {
                "delete it"
            } else {
                "delete it (it often comes from copying code from a web page)"
            };
            return self.error(diagnostic.with_help(help));
        }
        let help = match shown {
            '\\' => Some("a `\\` continues a line only as the last character of that line"),
            '!' => Some("use `~` for elementwise not on tensors, `not` on Python scalars"),
            '\u{2018}' | '\u{2019}' | '\u{201c}' | '\u{201d}' => {
                Some("use straight quotes, `'` or `\"`")
            }
            _ => None,
        };
        let mut diagnostic = Diagnostic::error(format!("unexpected character `{shown}`"), span)
            .with_label("not part of the language");
        if let Some(help) = help {
            diagnostic = diagnostic.with_help(help);
        }
        self.error(diagnostic)
    }
}

impl Lexer<'_> {
    /// `1abc`, `1_`, `1.5e`, `0x1fg`: letters glued to a number make Python's
    /// "invalid ... literal" (a keyword may follow, as in `1if x else 2`). The
    /// letters are consumed with the number so that one error is reported.
    fn letters_after_number(&mut self, raw: RawToken, span: &Range<usize>) -> Option<Diagnostic> {
        let name = match raw {
            RawToken::DecimalInt | RawToken::Float => "decimal",
            RawToken::HexInt => "hexadecimal",
            RawToken::OctalInt => "octal",
            RawToken::BinaryInt => "binary",
            _ => return None,
        };
        let rest = &self.source[span.end..];
        let word_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..word_len];
        const KEYWORDS: &[&str] = &["and", "else", "for", "if", "in", "is", "not", "or"];
        if word.is_empty() || KEYWORDS.contains(&word) {
            return None;
        }
        let mut consumed = word_len;
        // `1.5e+`: an exponent sign without digits belongs to the broken literal.
        if matches!(word, "e" | "E") && rest[word_len..].starts_with(['+', '-']) {
            consumed += 1;
        }
        self.raw.bump(consumed);
        let end = span.end + consumed;
        let literal = &self.source[span.start..end];
        Some(
            Diagnostic::error(
                format!("invalid {name} literal"),
                Span::new(span.start, end),
            )
            .with_label(format!("`{literal}` is not a number"))
            .with_help("separate a number from a name with an operator or a space"),
        )
    }
}

/// The width of a line's indentation as Python measures it: a tab advances to the
/// next multiple of 8, a form feed resets the count.
fn indentation_width(indentation: &str) -> usize {
    indentation.chars().fold(0, |width, c| match c {
        '\t' => (width / 8 + 1) * 8,
        '\x0c' => 0,
        _ => width + 1,
    })
}

/// Characters that show as nothing or as a plain space: Python calls them
/// non-printable and names their code point.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// `0x` alone: Python calls it an invalid hexadecimal literal, and so do we.
fn radix_without_digits(text: &str, span: &Range<usize>) -> Diagnostic {
    let (name, example) = match text.as_bytes().get(1) {
        Some(b'x' | b'X') => ("hexadecimal", "0x1f"),
        Some(b'o' | b'O') => ("octal", "0o17"),
        _ => ("binary", "0b101"),
    };
    Diagnostic::error(
        format!("invalid {name} literal"),
        Span::new(span.start, span.end),
    )
    .with_label(format!("expected {name} digits after `{text}`"))
    .with_help(format!("write digits after the prefix, e.g. `{example}`"))
}

impl<'src> Iterator for Lexer<'src> {
    type Item = SpannedToken<'src>;

    fn next(&mut self) -> Option<SpannedToken<'src>> {
        if let Some(token) = self.pending.pop_front() {
            return Some(token);
        }
        loop {
            let Some(raw) = self.raw.next() else {
                return self.end_of_file();
            };
            let span = self.raw.span();
            self.last_token = span.clone();
            if raw == Ok(RawToken::Newline) {
                match self.newline(span) {
                    Some(token) => return Some(token),
                    None => continue,
                }
            }
            self.check_indentation(span.start);
            let token = self.token(raw, span.clone());
            let source = self.source;
            let ident = || Ident {
                name: source[span.clone()].to_string(),
                span: Span::new(span.start, span.end),
            };
            if self.skipping_body_line {
                self.bindings.body_token(&token, ident);
                continue;
            }
            self.bindings.header_token(&token, ident);
            self.after_colon = token == Token::Colon && self.brackets.is_empty();
            if self.pending.is_empty() {
                return Some((span.start, token, span.end));
            }
            self.pending.push_back((span.start, token, span.end));
            return self.pending.pop_front();
        }
    }
}

#[cfg(test)]
mod tests;
