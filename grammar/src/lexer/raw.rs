//! The logos-generated scanner: maps bytes to raw token kinds and nothing more.
//!
//! Everything that needs context (bracket depth, significant newlines, indentation,
//! literal values, targeted errors) lives in the wrapper in `lexer.rs`, so this file
//! stays a plain table of patterns.

use logos::{Lexer, Logos};

/// Whether a string literal found its closing quote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StringEnd {
    Closed,
    /// The line (or, for triple quotes, the file) ended first.
    Unterminated,
}

#[derive(Logos, Clone, Copy, Debug, PartialEq)]
#[logos(skip r"[ \t\f]+")]
// A comment runs to the end of its line, never further, so greedy is safe.
#[logos(skip(r"#[^\r\n]*", allow_greedy = true))]
// A backslash that ends a physical line joins it to the next one.
#[logos(skip r"\\(\r\n|\r|\n)")]
pub(crate) enum RawToken {
    /// A line ends with LF, CRLF or a lone CR (old Mac files), as Python reads them.
    #[regex(r"\r\n|\r|\n")]
    Newline,

    #[regex(r"[\p{XID_Start}_]\p{XID_Continue}*")]
    Name,

    #[regex(r"[0-9](_?[0-9])*")]
    DecimalInt,
    #[regex(r"0[xX](_?[0-9a-fA-F])+")]
    HexInt,
    #[regex(r"0[oO](_?[0-7])+")]
    OctalInt,
    #[regex(r"0[bB](_?[01])+")]
    BinaryInt,
    /// `0x`, `0o` or `0b` with no digit after it.
    #[regex(r"0[xXoObB]")]
    RadixPrefixWithoutDigits,
    #[regex(r"[0-9](_?[0-9])*\.([0-9](_?[0-9])*)?([eE][+-]?[0-9](_?[0-9])*)?")]
    #[regex(r"\.[0-9](_?[0-9])*([eE][+-]?[0-9](_?[0-9])*)?")]
    #[regex(r"[0-9](_?[0-9])*[eE][+-]?[0-9](_?[0-9])*")]
    Float,
    #[regex(r"[0-9](_?[0-9])*(\.([0-9](_?[0-9])*)?)?([eE][+-]?[0-9](_?[0-9])*)?[jJ]")]
    #[regex(r"\.[0-9](_?[0-9])*([eE][+-]?[0-9](_?[0-9])*)?[jJ]")]
    Imaginary,

    /// An opening quote, possibly with a prefix such as `r`; the callback finds the end.
    #[regex(r#"[rRuUbBfF]{0,2}['"]"#, scan_string)]
    Str(StringEnd),

    #[token("True")]
    True,
    #[token("False")]
    False,
    #[token("None")]
    None,
    #[token("import")]
    Import,
    #[token("as")]
    As,
    #[token("and")]
    And,
    #[token("or")]
    Or,
    #[token("not")]
    Not,
    #[token("def")]
    Def,
    #[token("return")]
    Return,
    #[token("if")]
    If,
    #[token("elif")]
    Elif,
    #[token("else")]
    Else,
    #[token("for")]
    For,
    #[token("in")]
    In,
    #[token("is")]
    Is,
    #[token("while")]
    While,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("pass")]
    Pass,
    #[token("assert")]
    Assert,

    /// Python keywords and operators that the language does not have.
    #[token("lambda")]
    #[token("class")]
    #[token("with")]
    #[token("try")]
    #[token("except")]
    #[token("finally")]
    #[token("raise")]
    #[token("del")]
    #[token("global")]
    #[token("nonlocal")]
    #[token("yield")]
    #[token("from")]
    #[token("async")]
    #[token("await")]
    #[token("<<")]
    #[token(">>")]
    #[token("<<=")]
    #[token(">>=")]
    #[token("&=")]
    #[token("|=")]
    #[token("^=")]
    #[token(":=")]
    #[token("->")]
    Unsupported,

    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("//")]
    DoubleSlash,
    #[token("%")]
    Percent,
    #[token("**")]
    DoubleStar,
    #[token("@")]
    At,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("=")]
    Assign,
    #[token("+=")]
    PlusAssign,
    #[token("-=")]
    MinusAssign,
    #[token("*=")]
    StarAssign,
    #[token("/=")]
    SlashAssign,
    #[token("//=")]
    DoubleSlashAssign,
    #[token("%=")]
    PercentAssign,
    #[token("**=")]
    DoubleStarAssign,
    #[token("@=")]
    AtAssign,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    #[token(";")]
    Semicolon,
    #[token("...")]
    Ellipsis,
}

/// Extends the current token from its opening quote to the closing one.
///
/// Written by hand rather than as a regex so that an unterminated literal still
/// becomes one token (with a precise error) instead of a cascade of stray characters.
fn scan_string(lex: &mut Lexer<RawToken>) -> StringEnd {
    let slice = lex.slice();
    let quote = slice.chars().last().unwrap_or('"');
    let rest = lex.remainder();
    let quote_byte = quote as u8;
    if rest.as_bytes().starts_with(&[quote_byte, quote_byte]) {
        lex.bump(2);
        let (consumed, end) = scan_triple_quoted(lex.remainder(), quote);
        lex.bump(consumed);
        end
    } else {
        let (consumed, end) = scan_single_line(rest, quote);
        lex.bump(consumed);
        end
    }
}

/// Returns how many bytes of `rest` belong to the literal, closing quote included.
fn scan_single_line(rest: &str, quote: char) -> (usize, StringEnd) {
    let mut chars = rest.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                // The escaped character is part of the literal; an escaped CRLF
                // continues it on the next line like an escaped LF or CR.
                if let Some((_, '\r')) = chars.next() {
                    if let Some((_, '\n')) = chars.clone().next() {
                        chars.next();
                    }
                }
            }
            '\n' | '\r' => return (at, StringEnd::Unterminated),
            c if c == quote => return (at + c.len_utf8(), StringEnd::Closed),
            _ => {}
        }
    }
    (rest.len(), StringEnd::Unterminated)
}

fn scan_triple_quoted(rest: &str, quote: char) -> (usize, StringEnd) {
    let mut chars = rest.char_indices();
    let mut quotes_in_a_row = 0;
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                quotes_in_a_row = 0;
                chars.next();
            }
            c if c == quote => {
                quotes_in_a_row += 1;
                if quotes_in_a_row == 3 {
                    return (at + 1, StringEnd::Closed);
                }
            }
            _ => quotes_in_a_row = 0,
        }
    }
    (rest.len(), StringEnd::Unterminated)
}
