//! Chunk kernels: the pure functions a worker runs on one or a few chunks.
//! Every kernel takes and returns owned, C-contiguous `ArrayData` and reports bad
//! arguments as a `KernelError` instead of panicking.

pub mod matmul;
pub mod reduce;
pub mod scan;
pub mod shape;

use std::fmt;

/// Why a kernel could not run. The compiler checks user input before any kernel runs,
/// so reaching one of these means a planning bug or a corrupt input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError(pub String);

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KernelError {}
