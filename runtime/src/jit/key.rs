//! The JIT's kernel identity, the layer every other one reads: what the cache
//! compiles once ([`KernelKey`]: a kernel's structure and its call [`Variant`]), what
//! it hands back ([`CompiledKernel`]), and the facts about a key that lowering, the
//! call and the runtime must agree on (the accumulator's dtype, pairwise summation).
//! It depends on the IR ([`super::graph`]) only.

use super::error::JitError;
use super::graph::JitGraph;
use crate::dtype::DType;
use crate::ops::ReduceOp;

/// How a row's values are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `out[j] = value[j]`.
    Store,
    /// The row is one output position's run: `out[0] = fold(out[0], value[..])`.
    FoldRow,
    /// The row runs along kept axes: `out[j] = fold(out[j], value[j])`.
    AccumulateRow,
}

/// The chunk-independent shape of a call: which leaves are broadcast along the row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Per leaf: its value does not change along the row (inner stride 0).
    pub broadcast: Vec<bool>,
    pub mode: Mode,
    /// Rows one call folds into the same output row, in order (1, or
    /// [`super::layout::ROW_GROUP`] for an `AccumulateRow` kernel whose rows are grouped;
    /// leaf k's rows are then slot 1's byte stride apart).
    pub rows: usize,
}

/// What the cache compiles once: a kernel's structure and its call variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    pub graph: JitGraph,
    pub variant: Variant,
}

/// The dtype a reduction accumulates `input` in (its map state's dtype).
pub fn accumulator_dtype(op: ReduceOp, input: DType) -> Result<DType, JitError> {
    use ReduceOp::*;
    Ok(match op {
        // float16 sums, products and means accumulate in float32, as NumPy's (and the
        // interpreter's, whose state holds the float32 totals).
        Sum | Prod | Mean if input == DType::Float16 => DType::Float32,
        // The result dtype (`ops.rs`): sums in int64/uint64 or the float itself, a
        // float32 mean in float32 as NumPy's (and the interpreter's), counts in int64.
        Sum | Prod | Mean | Max | Min | All | Any | CountNonzero => op.result_dtype(input),
        Var | Std | ArgMax | ArgMin | NanMax | NanMin | NanArgMax | NanArgMin | WeightsCheck
        | ChoiceCheck | FweightsIntegerCheck | FweightsSignCheck | AweightsSignCheck => {
            return Err(JitError::NotSupported(format!(
                "not supported yet: {} in JIT kernels",
                op.name()
            )))
        }
    })
}

/// Whether the kernel sums floats over whole runs, which it does in NumPy's pairwise
/// order (in a second, recursive function) to match the interpreter bit for bit.
pub fn uses_pairwise(key: &KernelKey) -> bool {
    key.variant.mode == Mode::FoldRow
        && matches!(key.graph.reduce, Some(ReduceOp::Sum | ReduceOp::Mean))
        && key
            .graph
            .reduce
            .and_then(|op| accumulator_dtype(op, key.graph.root_dtype()).ok())
            .is_some_and(DType::is_float)
}

/// A compiled kernel: the entry point of one [`KernelKey`] and its IR text.
pub struct CompiledKernel {
    pub key: KernelKey,
    /// The address of `fn(args: *const u64, out: *mut u8, n: u64)`.
    pub(super) address: usize,
    /// The Cranelift IR, as `--emit kernels` prints it.
    pub ir: String,
    /// The dtype of each leaf, in leaf order (what `key.graph.leaf_dtypes()` gives,
    /// kept so that running a chunk does not walk the graph again).
    pub leaf_dtypes: Vec<DType>,
}

impl std::fmt::Debug for CompiledKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledKernel")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl PartialEq for CompiledKernel {
    fn eq(&self, other: &CompiledKernel) -> bool {
        self.key == other.key
    }
}
