//! `var` and `std` tails: the (count, mean, M2) state of a chunk in two compiled
//! passes, as the interpreter computes it (NumPy's two-pass `var`). The first pass is
//! the group with a `mean` tail (sums in float64); the second reads the same leaves
//! plus the means, broadcast along the reduced axes, and sums `(x - mean)²` in float64.
//! Both passes sum in the interpreter's order (the planner checks each as it does any
//! float sum), so the state is bit-identical to the interpreter's.

use super::graph::{JitGraph, LeafKind, Node, NodeKind};
use super::passes::{run_first, run_second};
use super::{CompiledKernel, JitOp};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernel::ChunkValue;
use crate::kernels::reduce::{Partial, ReduceState};
use crate::ops::{BinaryOp, ReduceOp};
use std::sync::Arc;

/// The dtype the moments are accumulated in, whatever the input's (as the
/// interpreter's `MeanAcc`).
const MOMENTS_DTYPE: DType = DType::Float64;

/// Whether `graph` ends in a tail this module computes.
pub fn is_moments(graph: &JitGraph) -> bool {
    matches!(graph.reduce, Some(ReduceOp::Var | ReduceOp::Std))
}

/// The first pass: the same group with a `mean` tail (its state holds the sums).
pub fn mean_pass(graph: &JitGraph) -> JitGraph {
    JitGraph {
        reduce: Some(ReduceOp::Mean),
        ..graph.clone()
    }
}

/// The second pass: the sum of `(root - mean)²`, where `mean` is one more buffer leaf
/// (the last, so it reads the last argument).
pub fn deviation_pass(graph: &JitGraph) -> JitGraph {
    let mut nodes = graph.nodes.clone();
    let leaf = graph.leaf_count() as u32;
    let mut push = |kind: NodeKind, args: Vec<u32>| {
        nodes.push(Node {
            kind,
            dtype: MOMENTS_DTYPE,
            args,
        });
        nodes.len() as u32 - 1
    };
    let mean = push(NodeKind::Leaf(leaf, LeafKind::Buffer), Vec::new());
    let subtract = NodeKind::Binary {
        op: BinaryOp::Subtract,
        common: MOMENTS_DTYPE,
    };
    let deviation = push(subtract, vec![graph.root, mean]);
    let multiply = NodeKind::Binary {
        op: BinaryOp::Multiply,
        common: MOMENTS_DTYPE,
    };
    let square = push(multiply, vec![deviation, deviation]);
    JitGraph {
        nodes,
        root: square,
        reduce: Some(ReduceOp::Sum),
    }
}

/// Runs both passes on one chunk. `op.kernel` is the mean pass, `deviations` the
/// second; `op.reduce` names the user's `var` or `std`.
pub fn run_moments(
    op: &JitOp,
    deviations: &Arc<CompiledKernel>,
    args: &[&ChunkValue],
) -> Result<ChunkValue, String> {
    let spec = op
        .reduce
        .as_ref()
        .ok_or("internal error: a var/std kernel without its reduction")?;
    let sums = run_first(op, args)?;
    let Partial::Total(ArrayData::Float64(total)) = sums.partial else {
        return Err("internal error: a var/std mean pass did not sum in float64".into());
    };
    let count = sums.count;
    let mean = ChunkValue::Array(ArrayData::Float64(total.mapv(|sum| sum / count as f64)));
    let Partial::Total(m2) = run_second(op, deviations, &[], args, &mean)? else {
        return Err("internal error: a var/std deviation pass gave no sums".into());
    };
    let ChunkValue::Array(mean) = mean else {
        return Err("internal error: var/std means changed kind".into());
    };
    Ok(ChunkValue::State(ReduceState::from_parts(
        spec.reduction.op,
        op.kernel.key.graph.root_dtype(),
        sums.axes,
        sums.keepdims,
        count,
        Partial::Moments { mean, m2 },
    )))
}
