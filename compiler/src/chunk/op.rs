//! The chunk-level operations: what one chunk of a step computes from its input
//! chunks. Parameters shared by every chunk of a step live here once; what differs
//! per chunk (its offset, its shape, the local part of a slice) is derived from the
//! chunk's index and its step's [`Layout`](super::Layout) on demand.

use crate::ops::{Creation, ElementwiseOp, ReductionStage, ShapeOp, SortStage};
use crate::tileable::IndexItem;
use marsc_runtime::kernels::histogram::Binning;
use marsc_runtime::kernels::linalg::LinalgOp;
use marsc_runtime::storage::SaveFormat;
use std::path::PathBuf;
use std::sync::Arc;

/// One chunk operation with its step-wide parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkOp {
    // ---- creation: no inputs; each chunk places itself by its global offset ----
    /// A creation op, the same value as its tileable's
    /// ([`crate::ops::creation`] declares what it knows).
    Create(Creation),

    // ---- element-wise: inputs are chunk-aligned; length-1 axes broadcast ----
    /// A ufunc of one or two tensors, `where` or `astype` (converting to the step's
    /// dtype), the same value as its tileable's ([`crate::ops::elementwise`]
    /// declares what it knows).
    Elementwise(ElementwiseOp),

    // ---- reduction trees and scan chains ----
    /// A stage of a reduction tree (map, combine, finish) or of a scan chain (total,
    /// carry, chunk: O(k) chunks per line of k chunks), declared with everything it
    /// knows in [`crate::ops::reduction`].
    Reduce(ReductionStage),

    // ---- linear algebra ----
    /// `a_0 @ b_0 + a_1 @ b_1 + ...` for inputs `[a_0 (r, k_0), b_0 (k_0, c), a_1, b_1,
    /// ...]`: a run of contracted blocks summed in order. With `partial` the step's
    /// layout has a leading axis counting the runs (one per chunk), and the chunk's
    /// data is the 2-D block without it.
    MatMulBlock { partial: bool },
    /// The sum of partial blocks (one level of the tree over the contracted axis);
    /// `partial` as for [`ChunkOp::MatMulBlock`]: false on the last level.
    SumBlocks { partial: bool },

    // ---- shape relabels: no arithmetic ----
    /// A relabel of the input chunk to this chunk's shape (`transpose`, `reshape`,
    /// `expand_dims`, `squeeze`, `broadcast_to`), the same value as its tileable's
    /// ([`crate::ops::shape`] declares what it knows).
    Shape(ShapeOp),
    /// Basic indexing with the tensor-level items; each chunk's local items come from
    /// [`ChunkGraph::slice_items`](super::ChunkGraph::slice_items).
    Slice { items: Vec<IndexItem> },
    /// The chunk is its single input chunk unchanged (concatenation relabels chunks).
    Alias,
    /// Rechunking: the chunk is assembled from the regions of the input chunks it
    /// overlaps (inputs in C order of their grid; see
    /// [`ChunkGraph::assemble_pieces`](super::ChunkGraph::assemble_pieces)).
    Assemble,
    /// The positions NumPy prints of a tensor too big to print whole (the first and
    /// last three of each axis it elides, see `marsc_runtime::format`), gathered into
    /// one small chunk from the regions of the input chunks that hold them (inputs
    /// in the order of [`corner_pieces`](super::corners::corner_pieces), an input
    /// chunk once per piece).
    Corners,

    // ---- selection by a boolean mask ----
    /// The number of true elements of the input mask chunk (one int64).
    CountTrue,
    /// Inputs `[x, mask]`: the slabs of `x` where the mask (over axes `axis..axis +
    /// mask.ndim` of `x`) is true; their number is the chunk's length along `axis`.
    Compress { axis: usize },
    /// Per block (`splits`) of an axis, how many of the input index chunk's indices
    /// fall in it, then the out-of-bounds count and the first out of bounds.
    IndexBlocks { splits: Arc<[usize]> },
    /// Inputs `[idx, block...]`: the slabs along `axis` of the blocks (chunks of x)
    /// that the 1-D index chunk names.
    Gather { axis: usize },

    // ---- sorting ----
    /// A sort of the chunk, or a stage of a distributed sort, declared with
    /// everything it knows in [`crate::ops::sort`].
    Sort(SortStage),

    // ---- saving one tensor into one `.npy` file ----
    /// Writes the header and sizes a temporary file; input: the previous commit to
    /// the same path, if any, so saves happen in program order.
    SaveInit {
        path: PathBuf,
        shape: Vec<usize>,
        /// The file's format and its options.
        format: SaveFormat,
    },
    /// Writes the input data chunk into its region; inputs `[data, init]`.
    SaveRegion { path: PathBuf },
    /// Renames the temporary file to `path` once every region is written.
    SaveCommit { path: PathBuf },

    // ---- dense linear algebra (issue 20) ----
    /// A solver or factorization of whole matrices, or a TSQR step
    /// (`marsc_runtime::kernels::linalg` documents each op's inputs and packing).
    Linalg(LinalgOp),

    // ---- histograms (issue 19) ----
    /// Inputs `[x]` or `[x, weights]`: the row of per-bin counts (or weight sums)
    /// of one chunk of 1-D values.
    BinCounts(Arc<Binning>),

    // ---- assignment through an integer index (issue 19) ----
    /// Inputs `[x, idx, values, idx, values, ...]`: x's chunk with the positions
    /// along `axis` that the index chunks name replaced by the values' slabs.
    Scatter { axis: usize },
}

impl ChunkOp {
    /// The short name used in dumps.
    pub fn name(&self) -> String {
        match self {
            ChunkOp::Create(op) => op.name().into(),
            ChunkOp::Elementwise(op) => op.name().into(),
            ChunkOp::Reduce(stage) => stage.name(),
            ChunkOp::MatMulBlock { .. } => "matmul.block".into(),
            ChunkOp::SumBlocks { .. } => "matmul.sum".into(),
            ChunkOp::Shape(op) => op.name().into(),
            ChunkOp::Slice { .. } => "slice".into(),
            ChunkOp::Alias => "alias".into(),
            ChunkOp::Assemble => "assemble".into(),
            ChunkOp::Corners => "corners".into(),
            ChunkOp::CountTrue => "count_true".into(),
            ChunkOp::Compress { .. } => "compress".into(),
            ChunkOp::IndexBlocks { .. } => "index_blocks".into(),
            ChunkOp::Gather { .. } => "gather".into(),
            ChunkOp::Sort(stage) => stage.name().into(),
            ChunkOp::BinCounts(_) => "bin_counts".into(),
            ChunkOp::Scatter { .. } => "scatter".into(),
            ChunkOp::SaveInit { .. } => "save.init".into(),
            ChunkOp::SaveRegion { .. } => "save.region".into(),
            ChunkOp::SaveCommit { .. } => "save.commit".into(),
            ChunkOp::Linalg(op) => op.name().into(),
        }
    }

    /// The number of inputs each chunk of this op takes, as an inclusive range.
    pub fn arity(&self) -> (usize, usize) {
        match self {
            ChunkOp::Create(_) => (0, 0),
            ChunkOp::Reduce(stage) => stage.arity(),
            ChunkOp::Sort(stage) => stage.arity(),
            ChunkOp::Shape(op) => (op.arity(), op.arity()),
            ChunkOp::Elementwise(op) => (op.arity(), op.arity()),
            ChunkOp::Slice { .. }
            | ChunkOp::Alias
            | ChunkOp::CountTrue
            | ChunkOp::IndexBlocks { .. } => (1, 1),
            ChunkOp::Gather { .. } => (2, usize::MAX),
            ChunkOp::BinCounts(_) => (1, 2),
            ChunkOp::Scatter { .. } => (1, usize::MAX),
            ChunkOp::SaveRegion { .. } | ChunkOp::Compress { .. } => (2, 2),
            ChunkOp::MatMulBlock { .. } => (2, usize::MAX),
            ChunkOp::SaveInit { .. } => (0, 1),
            ChunkOp::SumBlocks { .. }
            | ChunkOp::Assemble
            | ChunkOp::Corners
            | ChunkOp::SaveCommit { .. } => (1, usize::MAX),
            ChunkOp::Linalg(op) => match op {
                LinalgOp::Solve | LinalgOp::SolveTriangular { .. } | LinalgOp::QrQ => (2, 2),
                LinalgOp::QrStack => (1, usize::MAX),
                _ => (1, 1),
            },
        }
    }

    /// The step key its chunks keep instead of one computed from their contents
    /// ([`Creation::own_key`]: a cached tensor's).
    pub fn own_key(&self) -> Option<u64> {
        match self {
            ChunkOp::Create(op) => op.own_key(),
            _ => None,
        }
    }

    /// Whether a chunk may read chunks of its own step (a scan's carries form a
    /// chain inside their step).
    pub fn reads_own_step(&self) -> bool {
        match self {
            ChunkOp::Reduce(stage) => stage.reads_own_step(),
            _ => false,
        }
    }

    /// Whether the step's layout has a leading axis counting partial products that
    /// the chunks' data does not have.
    pub fn has_partial_axis(&self) -> bool {
        matches!(
            self,
            ChunkOp::MatMulBlock { partial: true } | ChunkOp::SumBlocks { partial: true }
        )
    }
}
