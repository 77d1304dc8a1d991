//! The marsc runtime: executes a plan of chunk operations on a pool of workers.
//! It owns the plan's data types and never depends on the compiler.

pub mod dtype;
pub mod ops;
pub mod random;
pub mod scalar;

pub use dtype::DType;
pub use scalar::Scalar;
