//! `argmax` and `argmin` tails: the (value, index) state of a chunk in two compiled
//! passes. The first is the group with a `max` (`min`) tail, NaN-propagating as NumPy's
//! is; the second reads the same leaves plus those extremes (broadcast along the
//! reduced axes), the chunk-local flat index and a sentinel, and takes the smallest
//! index whose value equals the extreme (or is NaN when the extreme is): for a fixed
//! output, C order over the chunk is C order over the reduced axes, so that is the
//! first occurrence, the one NumPy reports. Rust then maps it to the global index.

use super::error::JitError;
use super::graph::{JitGraph, LeafKind, Node, NodeKind};
use super::leaves::{IndexedSource, LeafInstance};
use super::passes::{run_first, run_second};
use super::{CompiledKernel, JitOp};
use crate::array::ArrayData;
use crate::chunk_value::ChunkValue;
use crate::dtype::DType;
use crate::kernels::reduce::{arg_global_indices, Partial, ReduceState};
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};
use crate::scalar::Scalar;
use std::sync::Arc;

/// The second pass of an arg tail, with what it needs beyond the first pass's leaves.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgPass {
    pub kernel: Arc<CompiledKernel>,
    /// The flat-index leaf and the sentinel leaf (the extremes' buffer leaf comes
    /// before them and reads the last argument).
    pub leaves: [LeafInstance; 2],
    /// Where the chunk sits in its tensor.
    pub offset: Vec<usize>,
}

/// Whether `graph` ends in a tail this module computes.
pub fn is_arg(graph: &JitGraph) -> bool {
    matches!(graph.reduce, Some(ReduceOp::ArgMax | ReduceOp::ArgMin))
}

/// The first pass: the same group with a `max` or `min` tail.
pub fn extreme_pass(graph: &JitGraph) -> JitGraph {
    let extreme = match graph.reduce {
        Some(ReduceOp::ArgMin) => ReduceOp::Min,
        _ => ReduceOp::Max,
    };
    JitGraph {
        reduce: Some(extreme),
        ..graph.clone()
    }
}

/// The second pass: `min(where(root == extreme, flat_index, i64::MAX))`, with NaN
/// matching a NaN extreme.
pub fn position_pass(graph: &JitGraph) -> JitGraph {
    let dtype = graph.root_dtype();
    let mut nodes = graph.nodes.clone();
    let first_leaf = graph.leaf_count() as u32;
    let mut push = |kind: NodeKind, dtype: DType, args: Vec<u32>| {
        nodes.push(Node { kind, dtype, args });
        nodes.len() as u32 - 1
    };
    let extreme = push(NodeKind::Leaf(first_leaf, LeafKind::Buffer), dtype, vec![]);
    let index = push(
        NodeKind::Leaf(first_leaf + 1, LeafKind::Indexed),
        DType::Int64,
        vec![],
    );
    let sentinel = push(
        NodeKind::Leaf(first_leaf + 2, LeafKind::Constant),
        DType::Int64,
        vec![],
    );
    let binary = |op: BinaryOp, common: DType| NodeKind::Binary { op, common };
    let mut matches = push(
        binary(BinaryOp::Equal, dtype),
        DType::Bool,
        vec![graph.root, extreme],
    );
    if dtype.is_float() {
        let root_nan = push(
            NodeKind::Unary(UnaryOp::IsNan),
            DType::Bool,
            vec![graph.root],
        );
        let extreme_nan = push(NodeKind::Unary(UnaryOp::IsNan), DType::Bool, vec![extreme]);
        let both_nan = push(
            binary(BinaryOp::LogicalAnd, DType::Bool),
            DType::Bool,
            vec![root_nan, extreme_nan],
        );
        matches = push(
            binary(BinaryOp::LogicalOr, DType::Bool),
            DType::Bool,
            vec![matches, both_nan],
        );
    }
    let candidate = push(
        NodeKind::Where,
        DType::Int64,
        vec![matches, index, sentinel],
    );
    JitGraph {
        nodes,
        root: candidate,
        reduce: Some(ReduceOp::Min),
    }
}

/// The two leaves [`position_pass`] adds after the extremes, for a reduced input of
/// `shape`: its chunk-local flat index, and the sentinel.
pub fn position_leaves(shape: &[usize]) -> [LeafInstance; 2] {
    let index = LeafInstance::Indexed {
        source: Arc::new(IndexedSource::Arange {
            start: Scalar::Int64(0),
            step: Scalar::Int64(1),
        }),
        global_shape: shape.to_vec(),
        offset: vec![0; shape.len()],
        shape: shape.to_vec(),
    };
    let sentinel = LeafInstance::Constant {
        value: Scalar::Int64(i64::MAX),
        shape: Vec::new(),
    };
    [index, sentinel]
}

/// Runs both passes on one chunk; `op.kernel` is the extreme pass.
pub fn run_arg(op: &JitOp, pass: &ArgPass, args: &[&ChunkValue]) -> Result<ChunkValue, JitError> {
    let spec = op
        .reduce
        .as_ref()
        .ok_or("internal error: an arg kernel without its reduction")?;
    let extremes = run_first(op, args)?;
    let Partial::Extreme(value) = extremes.partial else {
        return Err("internal error: an arg extreme pass gave no extremes".into());
    };
    let value = ChunkValue::Array(value);
    let Partial::Extreme(ArrayData::Int64(mut index)) =
        run_second(op, &pass.kernel, &pass.leaves, args, &value)?
    else {
        return Err("internal error: an arg position pass gave no int64 positions".into());
    };
    let LeafInstance::Indexed {
        shape: chunk_shape, ..
    } = &pass.leaves[0]
    else {
        return Err("internal error: an arg pass without its index leaf".into());
    };
    let positions = index
        .as_slice_mut()
        .ok_or("internal error: arg positions are not contiguous")?;
    arg_global_indices(
        chunk_shape,
        &extremes.axes,
        &spec.input_shape,
        &pass.offset,
        positions,
    )
    .map_err(|error| error.to_string())?;
    let ChunkValue::Array(value) = value else {
        return Err("internal error: arg extremes changed kind".into());
    };
    Ok(ChunkValue::State(ReduceState::from_parts(
        spec.reduction.op,
        op.kernel.key.graph.root_dtype(),
        extremes.axes,
        extremes.keepdims,
        extremes.count,
        Partial::Arg { value, index },
    )))
}
