//! Targeted errors for Python keywords and operators that version 1 leaves out.
//!
//! A user who writes `for` or `<<` knows Python; telling them the construct is not
//! in version 1 (and what to write instead) beats a generic "unexpected token".

use crate::ast::Ident;
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::span::Span;

/// Collects the names an unsupported block would bind, so that the compiler does
/// not report their later uses as unknown names (one error per construct): the name
/// after `def`/`class`, the targets between `for` and `in`, the name after `as`
/// (`with ... as f`), and `NAME = ...` / `NAME += ...` lines of a skipped body
/// (except in a `def` or `class`, whose names are local).
#[derive(Debug, Default)]
pub(crate) struct BlockBindings {
    pub found: Vec<Ident>,
    watch: Watch,
    /// The current block's body binds names in the enclosing scope.
    body_binds: bool,
    /// In a body line: the line's first token, while it may still be an assigned name.
    body_line_name: Option<Ident>,
    body_line_tokens: usize,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum Watch {
    #[default]
    Nothing,
    /// The next name is bound (`def f`, `as f`).
    NextName,
    /// Every name up to `in` is bound (`for i, j in`).
    UntilIn,
    /// A header whose `as` binds the name after it (`with`, `except`).
    As,
}

impl BlockBindings {
    /// An unsupported keyword outside a skipped body line.
    pub fn keyword(&mut self, text: &str, first_on_line: bool) {
        if text == "in" && self.watch == Watch::UntilIn {
            self.watch = Watch::Nothing;
            return;
        }
        if !first_on_line {
            return;
        }
        self.body_binds = !matches!(text, "def" | "class");
        self.watch = match text {
            "def" | "class" => Watch::NextName,
            "for" => Watch::UntilIn,
            _ => Watch::As,
        };
    }

    /// A token of a line that is parsed (a block header is one).
    pub fn header_token(&mut self, token: &Token<'_>, ident: impl FnOnce() -> Ident) {
        match (token, &self.watch) {
            (Token::Name(_), Watch::NextName) => {
                self.found.push(ident());
                self.watch = Watch::Nothing;
            }
            (Token::Name(_), Watch::UntilIn) => self.found.push(ident()),
            (Token::As, Watch::As) => self.watch = Watch::NextName,
            _ => {}
        }
    }

    /// A token of a skipped body line.
    pub fn body_token(&mut self, token: &Token<'_>, ident: impl FnOnce() -> Ident) {
        self.body_line_tokens += 1;
        match (self.body_line_tokens, token) {
            (1, Token::Name(_)) if self.body_binds => self.body_line_name = Some(ident()),
            (2, token) if is_assignment(token) => {
                self.found.extend(self.body_line_name.take());
            }
            _ => self.body_line_name = None,
        }
    }

    pub fn statement_ended(&mut self) {
        self.watch = Watch::Nothing;
        self.body_line_name = None;
        self.body_line_tokens = 0;
    }
}

fn is_assignment(token: &Token<'_>) -> bool {
    matches!(
        token,
        Token::Assign
            | Token::PlusAssign
            | Token::MinusAssign
            | Token::StarAssign
            | Token::SlashAssign
            | Token::DoubleSlashAssign
            | Token::PercentAssign
            | Token::DoubleStarAssign
            | Token::AtAssign
    )
}

/// Decides which unsupported keywords deserve a diagnostic, so that a Python block
/// gets one error at its header instead of one per line: `for x in y:` is reported
/// once, its indented body and its `else:` clause not at all.
#[derive(Debug, Default)]
pub(crate) struct UnsupportedBlocks {
    /// This statement already has its unsupported-keyword error (`for x in y`).
    reported_in_statement: bool,
    /// A header such as `for` was seen; indented lines after it are its body.
    block_open: bool,
    /// The current line is an indented body line of such a block.
    line_is_body: bool,
    /// The current line starts at column 1 right after a block, where Python
    /// would continue it with `else:` or `except:`.
    clause_may_follow: bool,
}

impl UnsupportedBlocks {
    /// Called at the first token of each logical line; returns whether the line's
    /// indentation is a block body whose header has already been reported.
    pub fn line_started(&mut self, indented: bool) -> bool {
        self.line_is_body = indented && self.block_open;
        self.clause_may_follow = !indented && self.block_open;
        if !indented {
            self.block_open = false;
        }
        self.line_is_body
    }

    pub fn statement_ended(&mut self) {
        self.reported_in_statement = false;
    }

    /// Whether the unsupported keyword `text` gets a diagnostic.
    pub fn should_report(&mut self, text: &str, first_on_line: bool) -> bool {
        let continues_block = first_on_line
            && self.clause_may_follow
            && matches!(text, "else" | "elif" | "except" | "finally");
        let report = !(self.line_is_body || continues_block || self.reported_in_statement);
        self.block_open = true;
        self.reported_in_statement = true;
        report
    }
}

const NO_BLOCKS: &str = "version 1 has no blocks (def, if, for); statements start at column 1";

/// The diagnostic for the unsupported keyword or operator `text` written at `span`.
pub(crate) fn unsupported_syntax(text: &str, span: Span) -> Diagnostic {
    let (what, help) = describe(text);
    Diagnostic::error(format!("{what} not supported in version 1"), span)
        .with_label("not supported in version 1")
        .with_help(help)
}

/// What to call the construct (subject of "… is not supported") and what to do instead.
fn describe(text: &str) -> (String, String) {
    let keyword = format!("`{text}` is");
    match text {
        "def" | "lambda" | "return" | "yield" | "class" | "->" => (
            keyword,
            "version 1 scripts are straight-line code without functions; write the computation out directly".into(),
        ),
        "if" | "elif" | "else" => (
            keyword,
            "to choose between values elementwise, use `mt.where(condition, x, y)`".into(),
        ),
        "for" | "while" | "break" | "continue" => (
            keyword,
            "version 1 has no loops; use whole-tensor operations such as `x.sum(axis=0)`".into(),
        ),
        "in" => (
            "the `in` operator is".into(),
            "compare values with `==` and combine the results with `|`".into(),
        ),
        "is" => (
            "the `is` operator is".into(),
            "compare values with `==` or `!=`".into(),
        ),
        "from" => (
            "`from` imports are".into(),
            "import the module itself, e.g. `import mars.tensor as mt`".into(),
        ),
        "del" => (
            keyword,
            "names can simply be rebound; there is no need to delete them".into(),
        ),
        "<<" | ">>" | "<<=" | ">>=" => (
            format!("the shift operator `{text}` is"),
            "multiply or floor-divide by a power of two instead".into(),
        ),
        "&=" | "|=" | "^=" => {
            let op = &text[..1];
            (
                keyword,
                format!("write the operation out: `x = x {op} y`"),
            )
        }
        ":=" => (
            "the assignment expression `:=` is".into(),
            "assign on a line of its own first: `name = value`".into(),
        ),
        _ => (keyword, NO_BLOCKS.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_reported_once_at_its_header() {
        let mut blocks = UnsupportedBlocks::default();
        assert!(!blocks.line_started(false));
        assert!(blocks.should_report("for", true));
        assert!(!blocks.should_report("in", false));
        blocks.statement_ended();
        // The indented body, including its own keywords.
        assert!(blocks.line_started(true));
        assert!(!blocks.should_report("return", true));
        blocks.statement_ended();
        // `else:` at column 1 continues the block.
        assert!(!blocks.line_started(false));
        assert!(!blocks.should_report("else", true));
        blocks.statement_ended();
        // A new statement at column 1 ends it.
        assert!(!blocks.line_started(false));
        blocks.statement_ended();
        assert!(!blocks.line_started(false));
        assert!(blocks.should_report("else", true));
    }

    #[test]
    fn every_message_names_the_construct_and_helps() {
        for text in [
            "def", "if", "for", "in", "is", "from", "del", "<<", "&=", ":=", "try",
        ] {
            let diagnostic = unsupported_syntax(text, Span::new(0, text.len()));
            assert!(diagnostic.message.contains(text), "{}", diagnostic.message);
            assert!(diagnostic.message.ends_with("not supported in version 1"));
            assert!(diagnostic.help.is_some());
        }
    }
}
