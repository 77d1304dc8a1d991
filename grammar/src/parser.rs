//! Drives the lalrpop parser over the lexer's tokens and gathers every diagnostic.

pub(crate) mod actions;
mod errors;
pub(crate) mod expressions;

use std::convert::Infallible;

use crate::ast::Module;
use crate::diagnostic::Diagnostic;
use crate::lexer;
use crate::span::Span;
use actions::Sink;

lalrpop_util::lalrpop_mod!(
    // Generated code: lints are the generator's business, not ours.
    #[allow(clippy::all, clippy::pedantic, unused)]
    generated,
    "/grammar.rs"
);

/// Parses the expression of an f-string's field, at `range` of `source`: the text is
/// parsed as `(expression)` on a line of its own, preceded by blank lines so that
/// every span is the source's own.
pub(crate) fn parse_expression_at(
    source: &str,
    range: std::ops::Range<usize>,
) -> Result<crate::ast::Expr, Vec<Diagnostic>> {
    let text = source.get(range.clone()).unwrap_or("");
    let mut padded = "\n".repeat(range.start.saturating_sub(1));
    padded.push('(');
    padded.push_str(text);
    padded.push_str(")\n");
    let (module, mut diagnostics) = parse(&padded);
    if !diagnostics.is_empty() {
        // The `)` parsing added is the field's closing `}` to the reader.
        for diagnostic in &mut diagnostics {
            if diagnostic.span.start as usize >= range.end {
                diagnostic.message = diagnostic.message.replace("`)`", "the end of the field");
            }
        }
        return Err(diagnostics);
    }
    match module.stmts.as_slice() {
        [crate::ast::Stmt {
            kind: crate::ast::StmtKind::Expr(expr),
            ..
        }] => {
            let mut expr = expr.clone();
            expr.span = Span::new(range.start, range.end);
            Ok(expr)
        }
        _ => Err(vec![Diagnostic::error(
            "f-string: expected an expression",
            Span::new(range.start, range.end),
        )]),
    }
}

/// Parses a whole script. The module holds every statement that parsed; the
/// diagnostics (lexical and syntax errors) are in source order.
pub fn parse(source: &str) -> (Module, Vec<Diagnostic>) {
    if u32::try_from(source.len()).is_err() {
        let diagnostic = Diagnostic::error("source file is too large", Span::new(0, 0))
            .with_label("files are limited to 4 GiB");
        return (Module::default(), vec![diagnostic]);
    }
    let lexed = lexer::tokenize(source);
    let mut sink = Sink::new();
    let tokens = lexed.tokens.iter().cloned().map(Ok::<_, Infallible>);
    let unrecovered = generated::ModuleParser::new()
        .parse(&mut sink, tokens)
        .err();

    let context = errors::ErrorContext::new(source, &lexed.tokens, lexed.unclosed_bracket_cutoff);
    let mut diagnostics = lexed.diagnostics;
    diagnostics.append(&mut sink.diagnostics);
    let syntax_errors = sink.recovered.into_iter().chain(unrecovered);
    // Where the lexer already explained the input (a missing indented block), the
    // parser's complaint at the same place is noise.
    let lexed_at: std::collections::HashSet<u32> =
        diagnostics.iter().map(|d| d.span.start).collect();
    diagnostics.extend(
        syntax_errors
            .filter_map(|error| context.diagnose(error))
            .filter(|d| !lexed_at.contains(&d.span.start)),
    );
    diagnostics.sort_by_key(|diagnostic| diagnostic.span.start);
    diagnostics.dedup();
    let mut unsupported_bindings = lexed.unsupported_bindings;
    unsupported_bindings.append(&mut sink.unsupported_bindings);
    unsupported_bindings.sort_by_key(|ident| ident.span.start);
    let module = Module {
        stmts: sink.statements,
        unsupported_bindings,
    };
    (module, diagnostics)
}

#[cfg(test)]
mod tests;
