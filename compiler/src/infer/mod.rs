//! Compile-time inference: the rules that give every tensor its dtype (NumPy 2
//! promotion with NEP 50 weak scalars), its shape (broadcasting, axes, reshape,
//! indexing) and its chunking (chunk specs, automatic chunking, per-op nsplits).
//! Lowering calls these; they know nothing about spans, so errors carry only the
//! message (in NumPy's wording where NumPy has one) and an optional help.

pub mod budget;
pub mod chunks;
pub mod dtypes;
pub mod index;
pub mod linalg;
pub mod nsplits;
pub mod shapes;

use std::fmt;

/// A rule violated by the user's program, to be reported at the expression's span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InferError {
    pub message: String,
    pub help: Option<String>,
}

impl InferError {
    pub fn new(message: impl Into<String>) -> Self {
        InferError {
            message: message.into(),
            help: None,
        }
    }

    pub fn with_help(self, help: impl Into<String>) -> Self {
        InferError {
            help: Some(help.into()),
            ..self
        }
    }
}

impl fmt::Display for InferError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InferError {}

pub type InferResult<T> = Result<T, InferError>;

/// Formats values the way Python prints a tuple: `(2, 3)`, `(4,)`, `()`.
pub(crate) fn python_tuple<T: fmt::Display>(values: &[T]) -> String {
    match values {
        [] => "()".to_string(),
        [only] => format!("({only},)"),
        _ => {
            let parts: Vec<String> = values.iter().map(T::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}
