//! The Cranelift JIT: compiles element-wise kernels (element-wise ops over the real
//! dtypes, float16 computed in float32 and rounded after each op as NumPy's, casts,
//! comparisons, `where`, creation ops read by global element index, and an optional
//! `reduce.map` tail: argmax/argmin tails take two compiled passes, `arg`) into
//! native row functions, and runs one chunk of a [`JitOp`]. Which subtasks of a plan
//! compile, and the rewrite of their ops into `Kernel::Jit` ops, is the layer above
//! ([`crate::jit_rewrite`]); the JIT itself knows nothing of the interpreter's
//! `Kernel` (it reads chunk values and step parameters from [`crate::chunk_value`]).
//!
//! Layers, each importing only those above it (no import cycle between them):
//! 0. `error` ([`JitError`]: what every layer below reports, by kind);
//! 1. IR: `graph` ([`graph::JitGraph`], the structure) and `leaves` (a chunk's leaf
//!    values), then `key` ([`key::KernelKey`] = structure + call [`key::Variant`],
//!    [`CompiledKernel`], the accumulator dtype and pairwise rule all layers share);
//! 2. `layout` (a chunk's shapes → rows and the variant);
//! 3. ABI: `call` (the row function's argument slots, the callbacks compiled code
//!    calls, and the call itself: the JIT's only unsafe code) and `externs` (the
//!    functions compiled code may call, by name and address);
//! 4. lowering to CLIF: `scalar_ops` (one scalar or lane op), `float16` (float16 bits
//!    to and from float32, which float16 ops compute in), `float16_lanes` (float16
//!    kernels in SIMD lanes), `accumulate` (folds),
//!    `loops`, `codegen` (a row function), `pairwise` (NumPy's pairwise sums);
//! 5. `cache`: compile once per key, process-wide, outside its lock;
//! 6. running a chunk: `run_chunk` (one pass into a buffer or a saved file), `passes` and
//!    `arg` (two-pass arg tails), and [`run_jit`] here.
//!
//! The op types ([`JitOp`], [`SecondPass`]) are defined here and `arg`'s pass is one
//! of them: the one mutual reference left, between a type and the code that runs it.
//!
//! Results are bit-identical to the interpreter for element-wise kernels; float
//! reductions differ only by summation order.

mod accumulate;
pub(crate) mod arg;
mod cache;
mod call;
pub mod codegen;
pub mod error;
mod externs;
mod float16;
mod float16_lanes;
pub mod graph;
pub mod key;
pub mod layout;
pub mod leaves;
mod loops;
mod pairwise;
mod passes;
pub(crate) mod run_chunk;
mod scalar_ops;

pub use cache::{compile_counters, compiled, thread_compile_seconds, CompileCounters};
pub use error::JitError;
pub use key::CompiledKernel;

use crate::chunk_value::{ChunkValue, ReduceSpec, SaveFile};
use arg::ArgPass;
use leaves::LeafInstance;
use std::sync::Arc;

/// Computes the op's chunk from its argument chunks (one per buffer leaf, in order);
/// an op with a save sink writes it into the saved file instead and returns `Done`.
pub fn run_jit(op: &JitOp, args: &[&ChunkValue]) -> Result<ChunkValue, JitError> {
    match &op.second {
        Some(SecondPass::Arg(pass)) => return arg::run_arg(op, pass, args),
        None => {}
    }
    match &op.sink {
        Some(sink) => run_chunk::run_into_file(op, sink, args),
        None => run_chunk::run_into_buffer(op, args),
    }
}

/// One chunk's JIT kernel: the compiled code (shared by every chunk with the same
/// structure) and this chunk's leaf values and placements.
#[derive(Clone, Debug, PartialEq)]
pub struct JitOp {
    pub kernel: Arc<CompiledKernel>,
    /// One per leaf of the kernel, in leaf order; buffer leaves read the op's
    /// arguments in order.
    pub leaves: Vec<LeafInstance>,
    /// The reduction the kernel's tail maps (its axes, for the state).
    pub reduce: Option<Arc<ReduceSpec>>,
    /// Where the chunk is saved, when the kernel writes it straight into the saved
    /// file (and yields `Done`) instead of returning it.
    pub sink: Option<SaveSink>,
    /// A tail computed in two passes, `kernel` being the first.
    pub second: Option<SecondPass>,
}

/// A saved chunk's place: its save and its offset in the saved array.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveSink {
    pub file: Arc<SaveFile>,
    pub offset: Vec<usize>,
}

/// The second pass of a two-pass tail.
#[derive(Clone, Debug, PartialEq)]
pub enum SecondPass {
    /// `argmax`/`argmin`: `kernel` finds the extremes; this their first positions
    /// (see `arg`).
    Arg(Box<ArgPass>),
}

impl JitOp {
    /// The compiled kernels this op runs (two for an `argmax`/`argmin` tail).
    pub fn compiled(&self) -> impl Iterator<Item = &Arc<CompiledKernel>> {
        let second = self
            .second
            .as_ref()
            .map(|SecondPass::Arg(pass)| &pass.kernel);
        std::iter::once(&self.kernel).chain(second)
    }
}

#[cfg(test)]
mod float16_tests;
#[cfg(test)]
mod grouped_tests;
#[cfg(test)]
mod indexed_tests;
#[cfg(test)]
mod tests;
