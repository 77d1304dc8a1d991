//! Op families: one module per family of operations, holding once what an op of
//! the family knows about itself at every stage — its name and dump text in both
//! IRs, its content key, its verification rules, whether it may fail at run time,
//! how it takes part in fusion, and how one of its chunks is computed (the runtime
//! kernel it maps to). The IRs hold a family's type as one variant
//! ([`TileOp::Create`](crate::tileable::TileOp::Create) and
//! [`ChunkOp::Create`](crate::chunk::ChunkOp::Create) hold a [`Creation`]), and the
//! passes (`tileable` display and verify, `chunk` key and display, `tile`, `fuse`,
//! `plan`) ask the family instead of listing its ops.
//!
//! Arrows go one way: a family module depends only on the runtime (its kernels and
//! value types), never on the IRs or the passes that call it, so a new family adds
//! no import cycle. What a family needs from a pass it asks through a small trait
//! the pass implements (the planner's [`creation::ChunkSite`],
//! [`reduction::ReduceSite`], [`shape::ShapeSite`] and [`sort::SortSite`], the chunk
//! verifier's [`reduction::StageChunk`] and [`elementwise::ElementwiseChunk`]); the
//! tileable verifier hands a family its nodes as [`TensorView`]s.
//!
//! The families so far: [`creation`] (`full`, `arange`, `linspace`, `eye`,
//! literals, random, `load`, cached tensors: `TileOp::Create` and `ChunkOp::Create`),
//! [`elementwise`] (the ufuncs of one and of two tensors, `where` and `astype`:
//! `TileOp::Elementwise` and `ChunkOp::Elementwise` hold the same
//! [`ElementwiseOp`]), [`reduction`] (reductions over axes and scans:
//! `TileOp::Reduce` holds a [`ReductionOp`], each step of its tiled tree
//! `ChunkOp::Reduce` a [`ReductionStage`]), [`sort`] (a sort of each chunk and the
//! stages of a distributed sort: `TileOp::Sort` holds a [`SortOp`], `ChunkOp::Sort`
//! a [`SortStage`]) and [`shape`] (the relabels `transpose`, `reshape`,
//! `expand_dims`, `squeeze` and `broadcast_to`: `TileOp::Shape` and `ChunkOp::Shape`
//! hold the same [`ShapeOp`]); the other shape ops (`index`, `concatenate`,
//! `rechunk`), matmul, linear algebra, the selections, histograms, scatter and the
//! save ops are still variants of `TileOp` and `ChunkOp` (issue 18). [`text`] and [`geometry`] hold what the
//! families, the IRs' dumps and verifiers and the inference write alike.
//! ARCHITECTURE.md, "How to add a creation op", "How to add an element-wise op",
//! "How to add a reduction" and "How to add a shape op", lists what a new op of a
//! family touches.

pub mod creation;
pub mod elementwise;
pub mod geometry;
pub mod reduction;
pub mod shape;
pub mod sort;
pub mod text;

pub use creation::Creation;
pub use elementwise::ElementwiseOp;
pub use reduction::{ReductionOp, ReductionStage};
pub use shape::ShapeOp;
pub use sort::{SortOp, SortStage};

use crate::error::Violation;
use marsc_runtime::storage::KeySink;
use marsc_runtime::DType;

/// How an op's chunks take part in fusion (`fuse/rules.rs`): whether a producer
/// ends a group before a consumer that reads other chunks too, and whether a
/// consumer absorbs only producers it reads alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusionClass {
    /// Neither contracts an axis nor gathers: joins its neighbours' group freely
    /// (element-wise work, creation leaves).
    Plain,
    /// Reduces the size of an axis: where a tree of partial results begins.
    Contracts,
    /// Reads a variable number of chunks meant to be computed in parallel.
    Gathers,
    /// Both: merges a variable number of partial results into one (a reduction's
    /// combine).
    Merges,
}

impl FusionClass {
    /// Whether a producer of this class ends a group before a consumer that reads
    /// other chunks too.
    pub fn contracts(self) -> bool {
        matches!(self, FusionClass::Contracts | FusionClass::Merges)
    }

    /// Whether a consumer of this class absorbs only the producers it reads alone.
    pub fn gathers(self) -> bool {
        matches!(self, FusionClass::Gathers | FusionClass::Merges)
    }
}

/// A tensor as a family's tileable rules see it: a node of the TileableGraph or one
/// of its inputs (`tileable/verify.rs` makes them from its nodes).
#[derive(Clone, Copy, Debug)]
pub struct TensorView<'a> {
    pub shape: &'a [usize],
    pub nsplits: &'a [Vec<usize>],
    pub dtype: DType,
}

/// A [`TensorView`] of borrowed parts, for the families' unit tests.
#[cfg(test)]
pub(crate) fn tensor<'a>(
    shape: &'a [usize],
    nsplits: &'a [Vec<usize>],
    dtype: DType,
) -> TensorView<'a> {
    TensorView {
        shape,
        nsplits,
        dtype,
    }
}

/// `Ok` when a dtype is the one expected, else the verifiers' message
/// (`the result is int32, expected int64`).
pub(crate) fn expect_dtype(what: &str, actual: DType, expected: DType) -> Result<(), Violation> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what} is {actual}, expected {expected}").into())
    }
}

/// A list in the key's encoding: its length, then each value.
pub(crate) fn write_usizes(key: &mut dyn KeySink, values: &[usize]) {
    key.u64(values.len() as u64);
    for &value in values {
        key.u64(value as u64);
    }
}

/// The key bytes an op writes, collected for the families' tests.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct KeyBytes(pub Vec<u8>);

#[cfg(test)]
impl marsc_runtime::storage::KeySink for KeyBytes {
    fn path(&mut self, path: &std::path::Path) {
        self.0.extend(path.to_string_lossy().as_bytes());
    }
    fn u64(&mut self, value: u64) {
        self.0.extend(value.to_le_bytes());
    }
    fn tag(&mut self, tag: u8) {
        self.0.push(tag);
    }
}
