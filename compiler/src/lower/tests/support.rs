//! Helpers for script tests: parse with the real parser, lower, verify, and show
//! results as dumps or as (message, spanned text) pairs.

use crate::lower::{lower, LowerOptions};
use crate::tileable::verify::verify;
use crate::tileable::TileableGraph;
use marsc_grammar::{parse, Diagnostic};

/// Lowers a script that must parse; a successful graph must verify.
pub fn lower_script(source: &str) -> Result<TileableGraph, Vec<Diagnostic>> {
    lower_with(source, &LowerOptions::default())
}

pub fn lower_with(source: &str, options: &LowerOptions) -> Result<TileableGraph, Vec<Diagnostic>> {
    let (module, syntax_errors) = parse(source);
    assert!(syntax_errors.is_empty(), "syntax errors: {syntax_errors:?}");
    let graph = lower(&module, options)?;
    if let Err(problem) = verify(&graph) {
        panic!("invalid graph: {problem}\n{}", graph.with_source(source));
    }
    Ok(graph)
}

/// The dump of a script that must lower.
pub fn dump(source: &str) -> String {
    match lower_script(source) {
        Ok(graph) => graph.with_source(source).to_string(),
        Err(errors) => panic!("unexpected errors: {:#?}", errors),
    }
}

/// The errors of a script that must fail: each message with the text its span covers.
pub fn errors(source: &str) -> Vec<(String, String)> {
    match lower_script(source) {
        Ok(graph) => panic!("expected errors, got\n{}", graph.with_source(source)),
        Err(errors) => errors
            .iter()
            .map(|d| (d.message.clone(), source[d.span.range()].to_string()))
            .collect(),
    }
}

/// The single error of a script: its message and the text its span covers.
pub fn error(source: &str) -> (String, String) {
    let mut all = errors(source);
    assert_eq!(all.len(), 1, "expected one error, got {all:#?}");
    all.remove(0)
}

/// The full diagnostic of a script with one error.
pub fn diagnostic(source: &str) -> Diagnostic {
    let mut all = lower_script(source).expect_err("expected an error");
    assert_eq!(all.len(), 1, "expected one error, got {all:#?}");
    all.remove(0)
}
