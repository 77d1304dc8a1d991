//! Interpreter kernels: the pure functions that compute one chunk of an operation from
//! the chunks of its inputs. Every kernel returns owned, C-contiguous `ArrayData` and
//! reports bad arguments as a `KernelError` instead of panicking. A JIT added later must
//! agree with them bit for bit, so the scalar semantics they implement (NumPy's, on
//! x86-64) are spelled out in [`scalar_semantics`] and [`cast`] rather than left to
//! Rust's operators.

pub(crate) mod binary;
mod cast;
mod creation;
mod element;
mod elementwise;
pub mod histogram;
pub mod linalg;
pub mod matmul;
pub mod reduce;
pub mod scalar_semantics;
pub mod scan;
pub mod scatter;
pub mod select;
pub mod shape;
pub mod sort;

use std::fmt;

pub use crate::convert::{f64_to_f16, f64_to_i32, f64_to_i64, f64_to_u64, CastFrom};
pub use crate::scalar::{cast_scalar, FromScalar};
pub use binary::binary;
pub use cast::{cast, int_values_saturating};
pub use creation::{arange, eye, full, linspace, literal};
pub(crate) use creation::{float_arange_at, int_arange_at, linspace_at};
pub(crate) use element::checked_len;
pub use element::Element;
pub use elementwise::{broadcast_shape, unary, where_};

/// Why a kernel could not compute its chunk: either a run-time condition NumPy also
/// reports (an integer raised to a negative power) or inputs that break the kernel's
/// contract, which points at a compiler bug rather than a user error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError(pub String);

impl KernelError {
    pub(crate) fn new(message: impl Into<String>) -> KernelError {
        KernelError(message.into())
    }
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KernelError {}

impl From<crate::array::AllocError> for KernelError {
    fn from(error: crate::array::AllocError) -> KernelError {
        KernelError(error.to_string())
    }
}
