//! The Cranelift JIT: compiles each eligible subtask (element-wise ops over the five
//! dtypes, casts, comparisons, `where`, creation ops read by global element index,
//! and an optional `reduce.map` tail) into one native row function, and rewrites the
//! plan so the subtask runs it as a single [`Kernel::Jit`] op per published value.
//!
//! - `build`: subtask ops → [`graph::JitGraph`] (structure) + leaf values;
//! - `layout`: a chunk's shapes → rows and the call [`codegen::Variant`];
//! - `codegen`, `scalar_ops`, `externs`: the Cranelift lowering;
//! - `cache`: compile once per structure and variant, process-wide;
//! - `exec` + `call`: run a chunk (the only unsafe code is in `call`).
//!
//! Results are bit-identical to the interpreter for element-wise kernels; float
//! reductions differ only by summation order.

mod build;
mod cache;
mod call;
pub mod codegen;
mod exec;
mod externs;
pub mod graph;
pub mod layout;
pub mod leaves;
mod pairwise;
mod scalar_ops;

pub use cache::{compile_counters, compiled, CompileCounters, CompiledKernel};
pub use exec::run_jit;

use crate::dtype::DType;
use crate::kernel::{Kernel, ReduceSpec};
use crate::ops::ReduceOp;
use crate::plan::{ChunkId, OpArg, Plan, PlanOp, Subtask};
use codegen::{accumulator_dtype, uses_pairwise, KernelKey};
use layout::{row_layout, LeafGeometry};
use leaves::LeafInstance;
use std::collections::HashSet;
use std::sync::Arc;

/// One chunk's JIT kernel: the compiled code (shared by every chunk with the same
/// structure) and this chunk's leaf values and placements.
#[derive(Clone, Debug, PartialEq)]
pub struct JitOp {
    pub kernel: Arc<CompiledKernel>,
    /// One per leaf of the kernel, in leaf order; buffer leaves read the op's
    /// arguments in order.
    pub leaves: Vec<LeafInstance>,
    /// The reduction the kernel's tail maps (its axes, for the state).
    pub reduce: Option<Arc<ReduceSpec>>,
}

/// What planning-time compilation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JitSummary {
    /// Distinct compiled kernels the plan uses.
    pub kernels: u64,
    /// Time spent compiling them (0 for kernels already in the cache).
    pub jit_seconds: f64,
    /// Subtasks rewritten to run JIT code.
    pub subtasks: u64,
}

/// A subtask input's dtype and shape, as the planner knows them.
#[derive(Clone, Debug, PartialEq)]
pub struct InputInfo {
    pub dtype: DType,
    pub shape: Vec<usize>,
}

/// Rewrites every eligible subtask of `plan` to JIT ops; `input_info` describes a
/// chunk a subtask reads. Ineligible subtasks are left as they are.
pub fn jit_plan(
    plan: &mut Plan<Kernel>,
    input_info: impl Fn(ChunkId) -> InputInfo,
) -> Result<JitSummary, String> {
    let before = compile_counters();
    let mut kernels: HashSet<*const CompiledKernel> = HashSet::new();
    let mut rewritten = 0;
    for subtask in &mut plan.subtasks {
        let inputs: Vec<InputInfo> = subtask.inputs.iter().map(|&c| input_info(c)).collect();
        if let Some(ops) = jit_subtask(subtask, &inputs)? {
            for op in &ops {
                if let Kernel::Jit(jit) = &op.kernel {
                    kernels.insert(Arc::as_ptr(&jit.kernel));
                }
            }
            subtask.outputs = subtask
                .outputs
                .iter()
                .enumerate()
                .map(|(index, &(_, chunk))| (index as u32, chunk))
                .collect();
            subtask.ops = ops;
            rewritten += 1;
        }
    }
    let after = compile_counters();
    Ok(JitSummary {
        kernels: kernels.len() as u64,
        jit_seconds: after.seconds - before.seconds,
        subtasks: rewritten,
    })
}

/// One JIT op per published output of `subtask`, or `None` if any op is unsupported.
pub fn jit_subtask(
    subtask: &Subtask<Kernel>,
    inputs: &[InputInfo],
) -> Result<Option<Vec<PlanOp<Kernel>>>, String> {
    if subtask.outputs.is_empty() {
        return Ok(None);
    }
    let dtypes: Vec<DType> = inputs.iter().map(|info| info.dtype).collect();
    let mut ops = Vec::with_capacity(subtask.outputs.len());
    for &(target, _) in &subtask.outputs {
        let Some(built) = build::build(&subtask.ops, target as usize, &dtypes) else {
            return Ok(None);
        };
        let computes = built.graph.reduce.is_some()
            || built
                .graph
                .nodes
                .iter()
                .any(|node| !matches!(node.kind, graph::NodeKind::Leaf(..)));
        if !computes && subtask.outputs.len() == 1 {
            // A lone creation op: the interpreter's bulk fill is as fast, and an
            // indexed leaf would cost a call per element.
            return Ok(None);
        }
        let geometry: Vec<LeafGeometry> =
            leaf_geometry(&built.leaves, &built.buffer_inputs, inputs)?;
        let reduce_axes = built.reduce.as_ref().map(|spec| {
            let mut axes = spec.axes.clone();
            axes.sort_unstable();
            axes.dedup();
            axes
        });
        let layout = row_layout(&geometry, reduce_axes.as_deref())?;
        let key = KernelKey {
            graph: built.graph,
            variant: layout.variant,
        };
        if sums_floats(&key) && !(uses_pairwise(&key) && !layout.reduced_outside_row) {
            // Only whole runs are summed in the interpreter's pairwise order.
            return Ok(None);
        }
        let kernel = compiled(&key)?;
        ops.push(PlanOp {
            kernel: Kernel::Jit(Box::new(JitOp {
                kernel,
                leaves: built.leaves,
                reduce: built.reduce,
            })),
            args: built
                .buffer_inputs
                .iter()
                .map(|&i| OpArg::Input(i))
                .collect(),
        });
    }
    Ok(Some(ops))
}

/// Whether the kernel's tail is a float sum or mean.
fn sums_floats(key: &KernelKey) -> bool {
    match key.graph.reduce {
        Some(op @ (ReduceOp::Sum | ReduceOp::Mean)) => {
            accumulator_dtype(op, key.graph.root_dtype()).is_ok_and(DType::is_float)
        }
        _ => false,
    }
}

fn leaf_geometry(
    leaves: &[LeafInstance],
    buffer_inputs: &[u32],
    inputs: &[InputInfo],
) -> Result<Vec<LeafGeometry>, String> {
    let mut buffers = buffer_inputs.iter();
    leaves
        .iter()
        .map(|leaf| match leaf {
            LeafInstance::Buffer => buffers
                .next()
                .and_then(|&i| inputs.get(i as usize))
                .map(|info| LeafGeometry::buffer(&info.shape))
                .ok_or_else(|| "internal error: a JIT buffer leaf without an input".to_string()),
            LeafInstance::Constant { shape, .. } => Ok(LeafGeometry::constant(shape)),
            LeafInstance::Indexed {
                global_shape,
                offset,
                shape,
                ..
            } => Ok(LeafGeometry::indexed(global_shape, offset, shape)),
        })
        .collect()
}

/// The Cranelift IR of every distinct kernel `plan` runs, in order of first use.
pub fn kernel_listing(plan: &Plan<Kernel>) -> String {
    let mut seen: HashSet<*const CompiledKernel> = HashSet::new();
    let mut listing = String::new();
    for subtask in &plan.subtasks {
        for op in &subtask.ops {
            if let Kernel::Jit(jit) = &op.kernel {
                if seen.insert(Arc::as_ptr(&jit.kernel)) {
                    let key = &jit.kernel.key;
                    listing.push_str(&format!(
                        "kernel k{} ({:?}, broadcast {:?}{})\n{}\n",
                        seen.len() - 1,
                        key.variant.mode,
                        key.variant.broadcast,
                        key.graph
                            .reduce
                            .map(|op| format!(", reduce {}", op.name()))
                            .unwrap_or_default(),
                        jit.kernel.ir
                    ));
                }
            }
        }
    }
    listing
}

#[cfg(test)]
mod tests;
