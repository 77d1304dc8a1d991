//! The tokens the parser consumes, and how diagnostics name them.

use std::borrow::Cow;

use super::raw::RawToken;

/// One token as the parser sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Token<'src> {
    Name(&'src str),
    Int(i64),
    Float(f64),
    /// An imaginary literal (`2j`, `1.5e3J`): the value of its imaginary part.
    Imaginary(f64),
    /// A string literal with its escapes processed.
    Str(Cow<'src, str>),
    /// An f-string, its fields parsed.
    FString(Vec<crate::ast::FPiece>),
    True,
    False,
    None,
    Import,
    As,
    And,
    Or,
    Not,
    Def,
    Return,
    If,
    Elif,
    Else,
    For,
    In,
    Is,
    While,
    Break,
    Continue,
    Pass,
    Assert,
    Plus,
    Minus,
    Star,
    Slash,
    DoubleSlash,
    Percent,
    DoubleStar,
    At,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    NotEq,
    Assign,
    PlusAssign,
    MinusAssign,
    StarAssign,
    SlashAssign,
    DoubleSlashAssign,
    PercentAssign,
    DoubleStarAssign,
    AtAssign,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Dot,
    Semicolon,
    Ellipsis,
    /// The end of a logical line (also produced once at the end of the file).
    Newline,
    /// A line indented deeper than the block header before it: a block's body begins.
    Indent,
    /// A line indented less than the one before it: a block's body ends (one token
    /// per block closed; also at the end of the file).
    Dedent,
    /// Text the lexer rejected; its diagnostic has already been recorded.
    Invalid,
}

impl Token<'_> {
    /// How a diagnostic names this token, e.g. "`)`", "name `x`", "end of line".
    /// `text` is the token's source text.
    pub fn describe(&self, text: &str) -> String {
        match self {
            Token::Name(name) => format!("name `{name}`"),
            Token::Int(_) | Token::Float(_) | Token::Imaginary(_) => format!("number `{text}`"),
            Token::Str(_) => "a string".to_string(),
            Token::FString(_) => "an f-string".to_string(),
            Token::Newline if text.is_empty() => "end of file".to_string(),
            Token::Newline => "end of line".to_string(),
            Token::Indent => "indentation".to_string(),
            Token::Dedent => "the end of the indented block".to_string(),
            _ => format!("`{}`", text.trim()),
        }
    }

    /// True for tokens that can begin an expression.
    pub fn starts_expression(&self) -> bool {
        matches!(
            self,
            Token::Name(_)
                | Token::Int(_)
                | Token::Float(_)
                | Token::Imaginary(_)
                | Token::Str(_)
                | Token::FString(_)
                | Token::True
                | Token::False
                | Token::None
                | Token::Not
                | Token::Plus
                | Token::Minus
                | Token::Tilde
                | Token::LParen
                | Token::LBracket
                | Token::Ellipsis
        )
    }
}

/// The tokens that carry no value and need no context.
pub(super) fn plain_token<'src>(raw: RawToken) -> Token<'src> {
    match raw {
        RawToken::True => Token::True,
        RawToken::False => Token::False,
        RawToken::None => Token::None,
        RawToken::Import => Token::Import,
        RawToken::As => Token::As,
        RawToken::And => Token::And,
        RawToken::Or => Token::Or,
        RawToken::Not => Token::Not,
        RawToken::Def => Token::Def,
        RawToken::Return => Token::Return,
        RawToken::If => Token::If,
        RawToken::Elif => Token::Elif,
        RawToken::Else => Token::Else,
        RawToken::For => Token::For,
        RawToken::In => Token::In,
        RawToken::Is => Token::Is,
        RawToken::While => Token::While,
        RawToken::Break => Token::Break,
        RawToken::Continue => Token::Continue,
        RawToken::Pass => Token::Pass,
        RawToken::Assert => Token::Assert,
        RawToken::Plus => Token::Plus,
        RawToken::Minus => Token::Minus,
        RawToken::Star => Token::Star,
        RawToken::Slash => Token::Slash,
        RawToken::DoubleSlash => Token::DoubleSlash,
        RawToken::Percent => Token::Percent,
        RawToken::DoubleStar => Token::DoubleStar,
        RawToken::At => Token::At,
        RawToken::Amp => Token::Amp,
        RawToken::Pipe => Token::Pipe,
        RawToken::Caret => Token::Caret,
        RawToken::Tilde => Token::Tilde,
        RawToken::Lt => Token::Lt,
        RawToken::Le => Token::Le,
        RawToken::Gt => Token::Gt,
        RawToken::Ge => Token::Ge,
        RawToken::EqEq => Token::EqEq,
        RawToken::NotEq => Token::NotEq,
        RawToken::Assign => Token::Assign,
        RawToken::PlusAssign => Token::PlusAssign,
        RawToken::MinusAssign => Token::MinusAssign,
        RawToken::StarAssign => Token::StarAssign,
        RawToken::SlashAssign => Token::SlashAssign,
        RawToken::DoubleSlashAssign => Token::DoubleSlashAssign,
        RawToken::PercentAssign => Token::PercentAssign,
        RawToken::DoubleStarAssign => Token::DoubleStarAssign,
        RawToken::AtAssign => Token::AtAssign,
        RawToken::Comma => Token::Comma,
        RawToken::Colon => Token::Colon,
        RawToken::Dot => Token::Dot,
        RawToken::Semicolon => Token::Semicolon,
        RawToken::Ellipsis => Token::Ellipsis,
        // Every other kind is handled by `Lexer::token` before it gets here.
        _ => Token::Invalid,
    }
}
