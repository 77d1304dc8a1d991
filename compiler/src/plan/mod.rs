//! Planning: SubtaskGraph + ChunkGraph → the runtime's [`Plan`] of concrete
//! [`Kernel`]s. Each subtask becomes a runtime subtask whose ops name their arguments
//! as the subtask's inputs or earlier ops; its label is the tileable its last op
//! computes, so a run-time error can name the source expression.
//!
//! This runs once per chunk, so it avoids per-subtask hashing: argument slots are
//! found through two scratch tables indexed by chunk id, stamped per subtask, and a
//! subtask whose ops equal a recently planned list shares it (`SharedOps`).

pub mod jit;
pub mod kernel;
pub mod mapped;

pub use kernel::KernelBuilder;

use crate::chunk::ChunkGraph;
use crate::error::InternalError;
use crate::subtask::{SubtaskGraph, SubtaskId};
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::plan::{self, OpArg, Plan, PlanOp, SharedOps};

/// Where a chunk is found while planning one subtask.
#[derive(Clone, Copy)]
struct Slot {
    /// The subtask being planned when the slot was written (stale otherwise).
    stamp: u32,
    arg: OpArg,
}

/// Builds the runtime plan; an `Err` is an internal error (a tiler or pass bug).
pub fn build_plan(
    subtasks: &SubtaskGraph,
    chunks: &ChunkGraph,
) -> Result<Plan<Kernel>, InternalError> {
    let mut kernels = KernelBuilder::new(chunks);
    let mut slots = vec![
        Slot {
            stamp: u32::MAX,
            arg: OpArg::Input(0),
        };
        chunks.num_chunks()
    ];
    let mut planned = Vec::with_capacity(subtasks.len());
    let mut scratch = Scratch {
        ops: Vec::new(),
        shared: SharedOps::default(),
    };
    for id in subtasks.ids() {
        planned.push(plan_subtask(
            subtasks,
            chunks,
            id,
            &mut kernels,
            &mut slots,
            &mut scratch,
        )?);
    }
    Ok(Plan {
        subtasks: planned,
        num_chunks: chunks.num_chunks() as u32,
        results: subtasks.results().to_vec(),
    })
}

/// Reused from subtask to subtask: the ops being planned, and the recent lists a
/// subtask's ops may share.
struct Scratch {
    ops: Vec<PlanOp<Kernel>>,
    shared: SharedOps<Kernel>,
}

fn plan_subtask(
    subtasks: &SubtaskGraph,
    chunks: &ChunkGraph,
    id: SubtaskId,
    kernels: &mut KernelBuilder<'_>,
    slots: &mut [Slot],
    scratch: &mut Scratch,
) -> Result<plan::Subtask<Kernel>, InternalError> {
    let ops_of = subtasks.ops(id);
    let mut inputs = plan::Inputs::new();
    let ops = &mut scratch.ops;
    ops.clear();
    let mut outputs = plan::Outputs::new();
    for (position, &chunk) in ops_of.iter().enumerate() {
        let args = chunks
            .inputs(chunk)
            .iter()
            .map(|&input| {
                let slot = &mut slots[input.index()];
                if slot.stamp != id.0 {
                    // Not computed here and not seen yet: a new subtask input.
                    *slot = Slot {
                        stamp: id.0,
                        arg: OpArg::Input(inputs.len() as u32),
                    };
                    inputs.push(input);
                }
                slot.arg
            })
            .collect();
        ops.push(PlanOp {
            kernel: kernels.kernel(chunk)?,
            args,
        });
        slots[chunk.index()] = Slot {
            stamp: id.0,
            arg: OpArg::Local(position as u32),
        };
        if subtasks.is_published(chunk) {
            outputs.push((position as u32, chunk));
        }
    }
    let subtask = subtasks.subtask(id);
    let last = ops_of
        .last()
        .ok_or_else(|| InternalError::new("plan", format!("internal error: {id} has no ops")))?;
    Ok(plan::Subtask {
        ops: scratch.shared.share(ops, Kernel::same_as),
        inputs,
        outputs,
        priority: subtask.priority,
        worker: subtask.worker,
        label: chunks.step_of(*last).tileable.0,
    })
}

#[cfg(test)]
mod tests;
