//! Source text to AST for the `.mt` language: logos tokens, a lalrpop grammar with
//! Python's precedence, spans on every node, and recovery that reports every syntax
//! error it can. This crate knows nothing of tensors or IRs.

pub mod ast;
pub mod diagnostic;
pub mod lexer;
pub mod span;

pub use diagnostic::Diagnostic;
pub use span::Span;
