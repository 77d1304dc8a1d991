//! Test-only crate: the data-driven tests live in `tests/*.rs`.
