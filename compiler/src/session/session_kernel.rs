//! The REPL's plan ops: a runtime [`Kernel`], or a value the session cache already
//! holds, handed to the subtask that reads it. Values travel as `Arc`s, so handing
//! on a cached chunk (or a result into the cache) shares it instead of copying it.
//!
//! [`hand_in_cached`] turns a plan built the script's way (fused, JIT-compiled), in
//! which a cached chunk is an input that no subtask produces, into one where each
//! such input is a leading [`SessionKernel::Cached`] op of its reader.

use crate::run::execute::PlannedKernel;
use marsc_runtime::chunk_kernel::{ChunkError, ChunkValue, Kernel};
use marsc_runtime::exec::ChunkKernel;
use marsc_runtime::plan::{self, ChunkId, OpArg, Plan, PlanOp, Subtask};
use std::sync::Arc;

/// A plan op: a cached value handed on, or a kernel that runs.
#[derive(Clone, Debug)]
pub enum SessionKernel {
    Cached(Arc<ChunkValue>),
    Run(Kernel),
}

impl PlannedKernel for SessionKernel {
    fn kernel(&self) -> Option<&Kernel> {
        match self {
            SessionKernel::Run(kernel) => Some(kernel),
            SessionKernel::Cached(_) => None,
        }
    }
}

impl ChunkKernel for SessionKernel {
    type Value = Arc<ChunkValue>;
    type Error = ChunkError;

    fn run(&self, args: &[&Arc<ChunkValue>]) -> Result<Arc<ChunkValue>, ChunkError> {
        match self {
            SessionKernel::Cached(value) => Ok(Arc::clone(value)),
            SessionKernel::Run(kernel) => {
                let args: Vec<&ChunkValue> = args.iter().map(|value| value.as_ref()).collect();
                kernel.run(&args).map(Arc::new)
            }
        }
    }

    fn nbytes(value: &Arc<ChunkValue>) -> usize {
        Kernel::nbytes(value)
    }

    fn spill(value: &Arc<ChunkValue>, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        Kernel::spill(value, out)
    }

    fn unspill(input: &mut dyn std::io::Read) -> std::io::Result<Arc<ChunkValue>> {
        Kernel::unspill(input).map(Arc::new)
    }
}

/// The plan with every input that `given` has a value for supplied by a
/// [`SessionKernel::Cached`] op at the start of the subtask reading it.
pub fn hand_in_cached(
    plan: Plan<Kernel>,
    given: impl Fn(ChunkId) -> Option<Arc<ChunkValue>>,
) -> Plan<SessionKernel> {
    Plan {
        subtasks: plan
            .subtasks
            .into_iter()
            .map(|subtask| hand_in_subtask(subtask, &given))
            .collect(),
        num_chunks: plan.num_chunks,
        results: plan.results,
    }
}

fn hand_in_subtask(
    subtask: Subtask<Kernel>,
    given: &impl Fn(ChunkId) -> Option<Arc<ChunkValue>>,
) -> Subtask<SessionKernel> {
    let mut ops = Vec::with_capacity(subtask.ops.len());
    let mut inputs = plan::Inputs::with_capacity(subtask.inputs.len());
    let mut arg_of_input = Vec::with_capacity(subtask.inputs.len());
    for &input in &subtask.inputs {
        match given(input) {
            Some(value) => {
                arg_of_input.push(OpArg::Local(ops.len() as u32));
                ops.push(PlanOp {
                    kernel: SessionKernel::Cached(value),
                    args: Default::default(),
                });
            }
            None => {
                arg_of_input.push(OpArg::Input(inputs.len() as u32));
                inputs.push(input);
            }
        }
    }
    // Every original op moves up past the cached ones.
    let shift = ops.len() as u32;
    for op in subtask.ops.iter() {
        let args = op
            .args
            .iter()
            .map(|&arg| match arg {
                OpArg::Input(index) => arg_of_input[index as usize],
                OpArg::Local(index) => OpArg::Local(index + shift),
            })
            .collect();
        ops.push(PlanOp {
            kernel: SessionKernel::Run(op.kernel.clone()),
            args,
        });
    }
    Subtask {
        ops: ops.into(),
        inputs,
        outputs: subtask
            .outputs
            .into_iter()
            .map(|(op, chunk)| (op + shift, chunk))
            .collect(),
        priority: subtask.priority,
        worker: subtask.worker,
        label: subtask.label,
    }
}
