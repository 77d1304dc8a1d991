//! Unit tests of lowering, through hand-built ASTs until the parser is merged.
