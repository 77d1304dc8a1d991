//! Unit tests of lowering. `hand_built` uses hand-built ASTs (exact spans, no
//! parser); the others go through the real parser.

mod ast_builder;
mod errors;
mod families;
mod files;
mod hand_built;
mod numpy_results;
mod python_values;
mod robustness;
mod support;
