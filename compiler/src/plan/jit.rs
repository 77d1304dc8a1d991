//! The JIT plan pass: rewrites every eligible subtask of a built plan into compiled
//! kernels (see `marsc_runtime::jit`), giving the JIT each input chunk's dtype and
//! shape from the ChunkGraph so the right kernel variant is compiled before the run.

use crate::chunk::{ChunkGraph, ChunkId};
use crate::error::InternalError;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::jit_rewrite::{jit_plan, InputInfo, JitSummary};
use marsc_runtime::plan::Plan;

/// Compiles the plan's eligible subtasks in place; an `Err` is an internal error.
pub fn compile_kernels(
    plan: &mut Plan<Kernel>,
    chunks: &ChunkGraph,
) -> Result<JitSummary, InternalError> {
    jit_plan(plan, |id: ChunkId| InputInfo {
        dtype: chunks.step_of(id).dtype,
        shape: chunks.data_shape(id),
    })
    .map_err(|error| InternalError::new("jit", error.to_string()))
}
