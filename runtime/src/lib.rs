//! The marsc runtime: executes a plan of chunk operations on a pool of workers.
//! It owns the plan's data types and never depends on the compiler.

pub mod array;
pub mod chunk_kernel;
pub mod chunk_value;
pub mod complex;
pub mod convert;
pub mod dtype;
pub mod exec;
pub mod format;
pub mod huge_alloc;
pub mod jit;
pub mod jit_rewrite;
pub mod kernels;
pub mod ops;
pub mod paths;
pub mod plan;
pub mod problems;
pub mod random;
pub mod scalar;
pub mod spill_format;
pub mod storage;

pub use array::ArrayData;
/// complex64/complex128 storage types (`ArrayData::Complex64`, `Scalar::Complex128`).
pub use complex::{C128, C64};
pub use dtype::DType;
/// float16's storage type (`ArrayData::Float16`, `Scalar::Float16`).
pub use half::f16;
pub use scalar::Scalar;
