//! Which producer may join its consumers' subtask. The structural condition (every
//! consumer chunk of the producer is in one group, and the producer is not an output)
//! is checked by [`super::groups`]; these are the conditions on the operations, for
//! one edge from a producer to a consumer.
//!
//! - An operation that **contracts an axis** (a reduction's map and combine, a scan's
//!   total and carry, a matmul block and its sums, a mask block's count) ends a
//!   group unless its consumer reads nothing else: these are where a tree of
//!   partial results begins, and
//!   absorbing every branch of the tree into its combine would serialise it on one
//!   worker.
//! - A consumer that **gathers** many chunks (a combine, a sum of blocks, a rechunk's
//!   assembly, a printed tensor's corners, a save's commit) absorbs only a producer
//!   it reads alone, for the same reason: its inputs are meant to be computed in
//!   parallel.
//! - An operation that **may fail at run time** (a load, a save, an integer power, a
//!   boolean arange) ends its group, so a failure is reported against the expression
//!   that failed (a subtask's label is its last operation's tileable). A load with
//!   `mmap_mode='r'` does not: its file is mapped (and checked) before the run, and
//!   once mapped, reading it cannot fail.
//!
//! An op family answers for its own ops (`ops::FusionClass`, `may_fail`): the
//! creation ops, the element-wise ops (`ops::elementwise`), the stages of
//! reductions and scans (`ops::reduction`), the sorting stages (`ops::sort`) and the
//! shape relabels (`ops::shape`).

use crate::chunk::ChunkOp;
use crate::ops::FusionClass;
use marsc_runtime::kernels::linalg::LinalgOp;
use marsc_runtime::DType;

use super::Fusion;

/// Whether a producer running `producer` may join the group of a consumer running
/// `consumer`; `reads_only_the_producer` says the consumer has no other input (a
/// chain, which any fusion level but [`Fusion::Off`] fuses).
pub fn may_join(
    fusion: Fusion,
    consumer: &ChunkOp,
    reads_only_the_producer: bool,
    producer: &ChunkOp,
) -> bool {
    match fusion {
        Fusion::Off => false,
        Fusion::Chain => reads_only_the_producer,
        Fusion::Blockwise => {
            reads_only_the_producer || (!contracts(producer) && !gathers(consumer))
        }
    }
}

/// Whether the op reduces the size of an axis (or a contracted matmul axis).
pub fn contracts(op: &ChunkOp) -> bool {
    if let Some(class) = family_class(op) {
        return class.contracts();
    }
    matches!(
        op,
        ChunkOp::MatMulBlock { .. }
            | ChunkOp::SumBlocks { .. }
            | ChunkOp::CountTrue
            | ChunkOp::IndexBlocks { .. }
            | ChunkOp::Linalg(_)
            | ChunkOp::BinCounts(_)
    )
}

/// Whether the op reads a variable number of chunks meant to be computed in parallel.
pub fn gathers(op: &ChunkOp) -> bool {
    if let Some(class) = family_class(op) {
        return class.gathers();
    }
    matches!(
        op,
        ChunkOp::SumBlocks { .. }
            | ChunkOp::Assemble
            | ChunkOp::Corners
            | ChunkOp::SaveCommit { .. }
            | ChunkOp::Linalg(LinalgOp::QrStack)
    )
}

/// The fusion class of an op an op family declares.
fn family_class(op: &ChunkOp) -> Option<FusionClass> {
    match op {
        ChunkOp::Create(op) => Some(op.fusion_class()),
        ChunkOp::Reduce(stage) => Some(stage.fusion_class()),
        ChunkOp::Sort(stage) => Some(stage.fusion_class()),
        ChunkOp::Shape(op) => Some(op.fusion_class()),
        ChunkOp::Elementwise(op) => Some(op.fusion_class()),
        _ => None,
    }
}

/// Whether the op can fail on valid input when it runs (`dtype` is its step's).
pub fn may_fail(op: &ChunkOp, dtype: DType) -> bool {
    match op {
        ChunkOp::Create(op) => op.may_fail(dtype),
        ChunkOp::Reduce(stage) => stage.may_fail(),
        ChunkOp::Shape(op) => op.may_fail(),
        ChunkOp::Elementwise(op) => op.may_fail(),
        ChunkOp::SaveInit { .. } | ChunkOp::SaveRegion { .. } | ChunkOp::SaveCommit { .. } => true,
        // A singular matrix, one without a Cholesky factor, no convergence.
        ChunkOp::Linalg(op) => matches!(
            op,
            LinalgOp::Solve
                | LinalgOp::Inv
                | LinalgOp::Cholesky
                | LinalgOp::Eigh
                | LinalgOp::Svd
                | LinalgOp::SvdValues
                | LinalgOp::SvdFactors { .. }
                | LinalgOp::SolveTriangular { .. }
        ),
        _ => false,
    }
}
