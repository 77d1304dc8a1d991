//! The JIT's error type, shared by its layers (it imports no other layer): what a
//! plan rewrite, a lowering to CLIF, a compile or a chunk's run reports, by kind. A
//! message built inside one module (`"internal error: ..."`) becomes
//! [`JitError::Internal`] through `From`.

use crate::array::AllocError;
use crate::chunk_value::WrongValue;
use crate::storage::StoreError;
use std::fmt;

/// Why the JIT could not compile a kernel or run a chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JitError {
    /// What the kernel would compute is something the JIT does not compile yet.
    NotSupported(String),
    /// The memory of a chunk could not be had (its expression is then reported,
    /// not the process aborted).
    Memory(String),
    /// Reading a mapped load or writing a saved file failed.
    Store(StoreError),
    /// Cranelift could not build or compile a kernel, or a kernel met arguments it
    /// was not compiled for: a marsc bug.
    Internal(String),
}

impl fmt::Display for JitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JitError::NotSupported(message)
            | JitError::Memory(message)
            | JitError::Internal(message) => f.write_str(message),
            JitError::Store(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for JitError {}

/// A message of a layer that still reports text: an internal error.
impl From<String> for JitError {
    fn from(message: String) -> JitError {
        JitError::Internal(message)
    }
}

impl From<&str> for JitError {
    fn from(message: &str) -> JitError {
        JitError::Internal(message.to_string())
    }
}

impl From<StoreError> for JitError {
    fn from(error: StoreError) -> JitError {
        JitError::Store(error)
    }
}

impl From<AllocError> for JitError {
    fn from(error: AllocError) -> JitError {
        JitError::Memory(error.to_string())
    }
}

impl From<WrongValue> for JitError {
    fn from(error: WrongValue) -> JitError {
        JitError::Internal(error.to_string())
    }
}
