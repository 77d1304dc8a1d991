//! Source text to AST for the `.mt` language: logos tokens, a lalrpop grammar with
//! Python's precedence, spans on every node, and recovery that reports every syntax
//! error it can. This crate knows nothing of tensors or IRs.
//!
//! ```
//! let (module, diagnostics) = marsc_grammar::parse("x = -2 ** 2\n");
//! assert!(diagnostics.is_empty());
//! assert_eq!(module.stmts.len(), 1);
//! ```

pub mod ast;
pub mod diagnostic;
mod dump;
pub mod lexer;
mod parser;
pub mod source_map;
pub mod span;

pub use diagnostic::Diagnostic;
pub use dump::{dump_ast, dump_ast_dot};
pub use parser::parse;
pub use source_map::LineIndex;
pub use span::Span;
