//! `var` and `std` tails: the (count, mean, M2) state of a chunk in two compiled
//! passes, as the interpreter computes it (NumPy's two-pass `var`). The first pass is
//! the group with a `mean` tail (sums in float64); the second reads the same leaves
//! plus the means, broadcast along the reduced axes, and sums `(x - mean)²` in float64.
//! Both passes sum in the interpreter's order (the planner checks each as it does any
//! float sum), so the state is bit-identical to the interpreter's.

use super::exec::run_jit;
use super::graph::{JitGraph, LeafKind, Node, NodeKind};
use super::leaves::LeafInstance;
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
    let input_dtype = op.kernel.key.graph.root_dtype();
    let first = JitOp {
        kernel: op.kernel.clone(),
        leaves: op.leaves.clone(),
        reduce: op.reduce.clone(),
        second: None,
    };
    let sums = into_state(run_jit(&first, args)?)?;
    let (axes, keepdims, count) = (
        sums.axes().to_vec(),
        sums.keepdims_shape().to_vec(),
        sums.count(),
    );
    let mean = match sums.into_partial() {
        Partial::Total(ArrayData::Float64(total)) => total.mapv(|sum| sum / count as f64),
        _ => return Err("internal error: a var/std mean pass did not sum in float64".into()),
    };
    let mean = ChunkValue::Array(ArrayData::Float64(mean));
    let mut leaves = op.leaves.clone();
    leaves.push(LeafInstance::Buffer);
    let second = JitOp {
        kernel: deviations.clone(),
        leaves,
        reduce: op.reduce.clone(),
        second: None,
    };
    let mut second_args = args.to_vec();
    second_args.push(&mean);
    let m2 = match into_state(run_jit(&second, &second_args)?)?.into_partial() {
        Partial::Total(ArrayData::Float64(m2)) => m2,
        _ => return Err("internal error: a var/std deviation pass did not sum in float64".into()),
    };
    let ChunkValue::Array(ArrayData::Float64(mean)) = mean else {
        return Err("internal error: var/std means changed kind".into());
    };
    Ok(ChunkValue::State(ReduceState::from_parts(
        spec.reduction.op,
        input_dtype,
        axes,
        keepdims,
        count,
        Partial::Moments {
            mean: ArrayData::Float64(mean),
            m2: ArrayData::Float64(m2),
        },
    )))
}

/// The state a reduction pass returned.
pub(super) fn into_state(value: ChunkValue) -> Result<ReduceState, String> {
    match value {
        ChunkValue::State(state) => Ok(state),
        _ => Err("internal error: a JIT reduction pass gave no reduction state".into()),
    }
}
