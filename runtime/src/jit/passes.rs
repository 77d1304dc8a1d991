//! What a two-pass tail (`arg`) needs: running the first pass (the op's
//! own kernel) for its partial state, then a second kernel over the same leaves plus
//! the ones that pass adds, the first of them reading the first pass's result
//! (broadcast along the reduced axes) as its last argument.

use super::error::JitError;
use super::leaves::LeafInstance;
use super::run_chunk::run_into_buffer;
use super::{CompiledKernel, JitOp};
use crate::chunk_value::ChunkValue;
use crate::kernels::reduce::{Partial, ReduceState};
use std::sync::Arc;

/// The first pass's state, taken apart.
pub struct FirstPass {
    pub axes: Vec<usize>,
    pub keepdims: Vec<usize>,
    /// Elements folded into each output.
    pub count: usize,
    pub partial: Partial,
}

/// Runs `op`'s own kernel (the first pass) on the chunk.
pub fn run_first(op: &JitOp, args: &[&ChunkValue]) -> Result<FirstPass, JitError> {
    let first = JitOp {
        kernel: op.kernel.clone(),
        leaves: op.leaves.clone(),
        reduce: op.reduce.clone(),
        second: None,
        sink: None,
    };
    let state = into_state(run_into_buffer(&first, args)?)?;
    Ok(FirstPass {
        axes: state.axes().to_vec(),
        keepdims: state.keepdims_shape().to_vec(),
        count: state.count(),
        partial: state.into_partial(),
    })
}

/// Runs `kernel` over `op`'s leaves, then a buffer leaf reading `result` (the first
/// pass's, as an array), then `extra_leaves`; gives its partial state.
pub fn run_second(
    op: &JitOp,
    kernel: &Arc<CompiledKernel>,
    extra_leaves: &[LeafInstance],
    args: &[&ChunkValue],
    result: &ChunkValue,
) -> Result<Partial, JitError> {
    let mut leaves = op.leaves.clone();
    leaves.push(LeafInstance::Buffer);
    leaves.extend(extra_leaves.iter().cloned());
    let second = JitOp {
        kernel: kernel.clone(),
        leaves,
        reduce: op.reduce.clone(),
        second: None,
        sink: None,
    };
    let mut second_args = args.to_vec();
    second_args.push(result);
    Ok(into_state(run_into_buffer(&second, &second_args)?)?.into_partial())
}

fn into_state(value: ChunkValue) -> Result<ReduceState, JitError> {
    match value {
        ChunkValue::State(state) => Ok(state),
        _ => Err("internal error: a JIT reduction pass gave no reduction state".into()),
    }
}
