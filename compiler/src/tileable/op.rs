//! The operations of the TileableGraph: one per tensor-level operation, after
//! lowering has resolved names, bound arguments, normalized axes and indices, and
//! decomposed conveniences (`clip`, `outer`, `stack`, 1-D `dot`, ...) into these.

use crate::infer::index::IndexItem;
use crate::ops::{Creation, ElementwiseOp, ReductionOp, ShapeOp, SortOp};
use std::sync::Arc;

/// One tensor operation. Inputs are the node's `inputs`, in the order documented here.
#[derive(Clone, Debug, PartialEq)]
pub enum TileOp {
    // ---- creation (no inputs) ----
    /// A creation op (`full`, `arange`, `linspace`, `eye`, literals, random, `load`,
    /// cached tensors), declared with everything it knows in [`crate::ops::creation`].
    Create(Creation),

    // ---- element-wise (inputs are broadcast against each other) ----
    /// A ufunc of one or two tensors, `where` or `astype`, declared with everything
    /// it knows in [`crate::ops::elementwise`].
    Elementwise(ElementwiseOp),

    // ---- reductions and scans (one input) ----
    /// A reduction over axes or a scan along one, declared with everything it knows
    /// in [`crate::ops::reduction`].
    Reduce(ReductionOp),

    // ---- linear algebra ----
    /// `[a, b]`, both 2-D, `(n, k) @ (k, m)`, both already of the node's dtype.
    /// 1-D `matmul`/`dot` are lowered to this with `ExpandDims`/`Squeeze` around it.
    MatMul,

    // ---- shape (no arithmetic) ----
    /// A relabel of its one input (`transpose`, `reshape`, `expand_dims`, `squeeze`,
    /// `broadcast_to`), declared with everything it knows in [`crate::ops::shape`].
    Shape(ShapeOp),
    /// Basic indexing, one item per input axis plus any `NewAxis` items.
    Index { items: Vec<IndexItem> },
    /// Join the inputs along `axis` (they agree on every other axis).
    Concatenate { axis: usize },
    /// Same values, the node's `nsplits` as the new chunking.
    Rechunk,

    // ---- selection by a boolean mask (lengths known from an earlier stage) ----
    /// The number of true elements of each block of a boolean mask, as int64: input
    /// `[mask]`, chunked along axis 0 only (one chunk on every other axis); one
    /// element per block, each its own chunk. Only a stage fetches it (`x[mask]` asks
    /// how much each block selects), so a print of it is never summarized.
    BlockCounts,
    /// `x[..., mask, ...]` for one boolean index: inputs `[x, mask]`; the mask covers
    /// x's axes `axis..axis + mask.ndim`, is chunked along its axis 0 as x is along
    /// `axis`, and is one chunk on its other axes (as x is on those). `counts[b]` is
    /// how many elements block `b` selects (a stage fetched them from
    /// [`TileOp::BlockCounts`]); the output replaces the mask's axes with one axis of
    /// their sum, one chunk per block that selects something.
    Compress { axis: usize, counts: Arc<[usize]> },
    /// Per chunk of a 1-D integer index: how many of its indices fall in each block
    /// (`splits`) of an axis of length `splits.sum()`, then how many are out of
    /// bounds and the first of those — one int64 row of `splits.len() + 2` per index
    /// chunk. Only a stage fetches it, so a print of it is never summarized.
    IndexBlocks { splits: Arc<[usize]> },
    /// `x[..., idx, ...]` along `axis` for a 1-D integer index: inputs `[x, idx]`;
    /// the output's axis `axis` has idx's length and chunks, its other axes are x's;
    /// `touched[i]` lists the chunks of x along `axis` that index chunk `i` reads
    /// (a stage found them with [`TileOp::IndexBlocks`]; never empty).
    Gather {
        axis: usize,
        touched: Arc<[Vec<u32>]>,
    },
    // ---- dense linear algebra (issue 20) ----
    /// A solver or factorization (`tile/linalg.rs`): inputs `[a]` or `[a, b]`
    /// (`solve`), float64, whole matrices gathered to one chunk, except the TSQR
    /// results `QrQ` (inputs `[a]`, chunked by rows, each chunk at least as tall as
    /// `a` is wide) and `QrR`.
    Linalg(marsc_runtime::kernels::linalg::LinalgOp),
    // ---- sorting (issue 19) ----
    /// A sort of each chunk along an axis, or a stage of a distributed sort
    /// (grouping by pivots, searching, merging), declared with everything it knows
    /// in [`crate::ops::sort`].
    Sort(SortOp),

    // ---- histograms (issue 19) ----
    /// `bincount`/`histogram` per chunk: inputs `[x]` or `[x, weights]` (1-D, chunked
    /// alike); one row of per-bin counts (int64) or weight sums (float64) per chunk
    /// of x, shape `(x chunks, bins)` — a sum over axis 0 finishes the count.
    BinCounts(Arc<marsc_runtime::kernels::histogram::Binning>),

    // ---- assignment through an integer index (issue 19) ----
    /// `x` with `x[..., idx, ...] = values` along `axis`: inputs `[x, idx, values]`,
    /// idx a 1-D integer index (in bounds; negative counts from the end), values of
    /// x's shape but idx's length along `axis`, chunked along it as idx is and as x
    /// is along the other axes. The output is x's shape and chunks; `touched[b]`
    /// lists, ascending, the index chunks naming a position in x's block `b` along
    /// `axis` (a stage found them with [`TileOp::IndexBlocks`]). Of repeated
    /// indices the last one's value stays.
    Scatter {
        axis: usize,
        touched: Arc<[Vec<u32>]>,
    },
}
