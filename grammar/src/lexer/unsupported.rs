//! Targeted errors for Python keywords and operators that the language leaves out.
//!
//! A user who writes `with` or `<<` knows Python; telling them the construct is not
//! in the language (and what to write instead) beats a generic "unexpected token".

use crate::ast::Ident;
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::span::Span;

/// Collects the names an unsupported block would bind, so that the compiler does
/// not report their later uses as unknown names (one error per construct): the name
/// after `class`, the name after `as` (`with ... as f`), and `NAME = ...` /
/// `NAME += ...` lines of a skipped body (except in a `class`, whose names are local).
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
    /// The next name is bound (`class C`, `as f`).
    NextName,
    /// A header whose `as` binds the name after it (`with`, `except`).
    As,
}

impl BlockBindings {
    /// An unsupported keyword outside a skipped body line.
    pub fn keyword(&mut self, text: &str, first_on_line: bool) {
        if !first_on_line {
            return;
        }
        self.body_binds = text != "class";
        self.watch = match text {
            "class" => Watch::NextName,
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
/// gets one error at its header instead of one per line: `with f() as g:` is reported
/// once, its indented body and its `except:` clauses not at all.
#[derive(Debug, Default)]
pub(crate) struct UnsupportedBlocks {
    /// This statement already has its unsupported-keyword error (`with a as b`).
    reported_in_statement: bool,
    /// A header such as `with` was seen; lines indented deeper after it are its body.
    block_open: bool,
    /// The indentation width of that header's line.
    header_width: usize,
    /// The indentation width of the current line.
    line_width: usize,
    /// The current line is an indented body line of such a block.
    line_is_body: bool,
    /// The current line starts at column 1 right after a block, where Python
    /// would continue it with `else:` or `except:`.
    clause_may_follow: bool,
}

impl UnsupportedBlocks {
    /// Called at the first token of each logical line with its indentation width;
    /// returns whether the line is the body of a block whose header has already been
    /// reported.
    pub fn line_started(&mut self, width: usize) -> bool {
        let indented = width > self.header_width;
        self.line_width = width;
        self.line_is_body = indented && self.block_open;
        self.clause_may_follow = width == self.header_width && self.block_open;
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
        if !self.line_is_body {
            self.header_width = self.line_width;
        }
        self.block_open = true;
        self.reported_in_statement = true;
        report
    }
}

const NO_BLOCKS: &str = "docs/language.md lists the statements the language has";

/// The diagnostic for the unsupported keyword or operator `text` written at `span`.
pub(crate) fn unsupported_syntax(text: &str, span: Span) -> Diagnostic {
    let (what, help) = describe(text);
    Diagnostic::error(format!("{what} not supported"), span)
        .with_label("not part of the language")
        .with_help(help)
}

/// What to call the construct (subject of "… is not supported") and what to do instead.
fn describe(text: &str) -> (String, String) {
    let keyword = format!("`{text}` is");
    match text {
        "lambda" | "yield" | "->" => (
            keyword,
            "define a function with `def name(params):` and an indented body".into(),
        ),
        "class" => (keyword, "write functions with `def` instead".into()),
        "with" => (
            keyword,
            "read and write files with `load` and `save`; there is no context manager".into(),
        ),
        "try" | "except" | "finally" | "raise" => (
            keyword,
            "errors are reported by marsc before anything runs; there is nothing to catch".into(),
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
            (keyword, format!("write the operation out: `x = x {op} y`"))
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
        assert!(!blocks.line_started(0));
        assert!(blocks.should_report("with", true));
        assert!(!blocks.should_report("as", false));
        blocks.statement_ended();
        // The indented body, including its own keywords.
        assert!(blocks.line_started(4));
        assert!(!blocks.should_report("yield", true));
        blocks.statement_ended();
        // `except:` at the header's indentation continues the block.
        assert!(!blocks.line_started(0));
        assert!(!blocks.should_report("except", true));
        blocks.statement_ended();
        // A new statement at column 1 ends it.
        assert!(!blocks.line_started(0));
        blocks.statement_ended();
        assert!(!blocks.line_started(0));
        assert!(blocks.should_report("except", true));
    }

    #[test]
    fn every_message_names_the_construct_and_helps() {
        for text in [
            "lambda", "class", "with", "from", "del", "<<", "&=", ":=", "try",
        ] {
            let diagnostic = unsupported_syntax(text, Span::new(0, text.len()));
            assert!(diagnostic.message.contains(text), "{}", diagnostic.message);
            assert!(diagnostic.message.ends_with("not supported"));
            assert!(diagnostic.help.is_some());
        }
    }
}
