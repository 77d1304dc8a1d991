//! Targeted errors for Python keywords and operators that version 1 leaves out.
//!
//! A user who writes `for` or `<<` knows Python; telling them the construct is not
//! in version 1 (and what to write instead) beats a generic "unexpected token".

use crate::diagnostic::Diagnostic;
use crate::span::Span;

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
            "`from ... import` is".into(),
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
