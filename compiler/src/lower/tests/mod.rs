//! Unit tests of lowering. `hand_built` uses hand-built ASTs (exact spans, no parser).

mod ast_builder;
mod hand_built;
