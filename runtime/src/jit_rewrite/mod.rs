//! The JIT's plan rewrite: which subtasks of a plan compile, and their ops replaced
//! by [`Kernel::Jit`] ops. `select` turns a subtask's ops into the JIT's IR (a
//! [`JitGraph`](crate::jit::graph::JitGraph) and its leaves); this module decides what
//! each rewritten subtask computes, compiles it through [`crate::jit`]'s cache and
//! writes the new ops. Planning calls [`jit_plan`] once per plan.
//!
//! It is above both kinds of kernel: it reads the interpreter's [`Kernel`]s and
//! writes [`JitOp`]s, while [`crate::chunk_kernel`] runs a JIT op by calling into
//! [`crate::jit`], which knows nothing of `Kernel` (no import cycle between them).

mod select;

use crate::chunk_kernel::Kernel;
use crate::dtype::DType;
use crate::jit::arg;
use crate::jit::graph;
use crate::jit::key::{self, accumulator_dtype, uses_pairwise, CompiledKernel, KernelKey};
use crate::jit::layout::{root_shape, row_layout, row_layout_into, LeafGeometry};
use crate::jit::leaves::LeafInstance;
use crate::jit::run_chunk::keepdims_shape;
use crate::jit::{compiled, thread_compile_seconds, JitError, JitOp, SaveSink, SecondPass};
use crate::ops::ReduceOp;
use crate::plan::{ChunkId, OpArg, Plan, PlanOp, Recent, Subtask};
use std::collections::HashSet;
use std::sync::Arc;

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
/// chunk a subtask reads. Ineligible subtasks are left as they are. Subtasks that
/// share their ops (see [`crate::plan::SharedOps`]) and read inputs of the same
/// dtypes and shapes are rewritten once: they share the rewritten ops too.
pub fn jit_plan(
    plan: &mut Plan<Kernel>,
    input_info: impl Fn(ChunkId) -> InputInfo,
) -> Result<JitSummary, JitError> {
    // This thread's compile time: other jobs compiling meanwhile do not count.
    let before = thread_compile_seconds();
    let mut kernels: HashSet<*const CompiledKernel> = HashSet::new();
    let mut rewritten = 0;
    let mut recent: Recent<RecentRewrite> = Recent::default();
    for subtask in &mut plan.subtasks {
        let inputs: Vec<InputInfo> = subtask.inputs.iter().map(|&c| input_info(c)).collect();
        let found = recent.find(|entry| entry.fits(subtask, &inputs));
        let rewrite = match found {
            Some(entry) => entry.rewrite.clone(),
            None => {
                let rewrite = jit_subtask(subtask, &inputs)?.map(|(ops, outputs)| {
                    for op in &ops {
                        if let Kernel::Jit(jit) = &op.kernel {
                            kernels.extend(jit.compiled().map(Arc::as_ptr));
                        }
                    }
                    let positions = outputs.iter().map(|&(position, _)| position).collect();
                    (Arc::from(ops), positions)
                });
                recent.insert(RecentRewrite {
                    ops: subtask.ops.clone(),
                    outputs: subtask
                        .outputs
                        .iter()
                        .map(|&(position, _)| position)
                        .collect(),
                    inputs,
                    rewrite: rewrite.clone(),
                });
                rewrite
            }
        };
        if let Some((ops, positions)) = rewrite {
            for (output, position) in subtask.outputs.iter_mut().zip(positions.iter()) {
                output.0 = *position;
            }
            subtask.ops = ops;
            rewritten += 1;
        }
    }
    Ok(JitSummary {
        kernels: kernels.len() as u64,
        jit_seconds: thread_compile_seconds() - before,
        subtasks: rewritten,
    })
}

/// A subtask's rewrite as [`jit_plan`] shares it: the new ops and, per output, the
/// position of the op publishing it; `None` when it stays interpreted.
type SharedRewrite = Option<(Arc<[PlanOp<Kernel>]>, Arc<[u32]>)>;

/// A rewrite [`jit_plan`] made, by the shared ops it rewrote.
struct RecentRewrite {
    /// Held, so that no other list is allocated at its address while it is here.
    ops: Arc<[PlanOp<Kernel>]>,
    outputs: Vec<u32>,
    inputs: Vec<InputInfo>,
    rewrite: SharedRewrite,
}

impl RecentRewrite {
    /// Whether `subtask`, reading `inputs`, would be rewritten as this was.
    fn fits(&self, subtask: &Subtask<Kernel>, inputs: &[InputInfo]) -> bool {
        Arc::ptr_eq(&self.ops, &subtask.ops)
            && self.inputs == inputs
            && self
                .outputs
                .iter()
                .copied()
                .eq(subtask.outputs.iter().map(|&(position, _)| position))
    }
}

/// The ops and outputs of a rewritten subtask.
pub type RewrittenSubtask = (Vec<PlanOp<Kernel>>, Vec<(u32, ChunkId)>);

/// The subtask with its JIT-able ops compiled: every value that is published or read
/// by an op the JIT does not support (a slice, a save, a reduction combine) becomes
/// one JIT op computing its whole element-wise sub-DAG, and the unsupported ops run
/// interpreted after them. `None` when nothing would be compiled.
pub fn jit_subtask(
    subtask: &Subtask<Kernel>,
    inputs: &[InputInfo],
) -> Result<Option<RewrittenSubtask>, JitError> {
    let ops = &subtask.ops;
    let dtypes: Vec<DType> = inputs.iter().map(|info| info.dtype).collect();
    let eligible = select::eligible(ops, &dtypes);
    // Only the values the rewrite computes are built, each once (building every op
    // would be quadratic in a chain): the JIT op of a value takes its build.
    let mut builds: Vec<Option<select::Built>> = (0..ops.len()).map(|_| None).collect();
    let mut boundary = vec![false; ops.len()];
    for (index, op) in ops.iter().enumerate() {
        if eligible[index] {
            continue;
        }
        for arg in &op.args {
            if let OpArg::Local(used) = *arg {
                boundary[used as usize] |= eligible[used as usize];
            }
        }
    }
    for &(target, _) in &subtask.outputs {
        boundary[target as usize] |= eligible[target as usize];
    }
    for (index, &is_boundary) in boundary.iter().enumerate() {
        if is_boundary {
            builds[index] = select::build(ops, index, &dtypes);
        }
    }
    let sunk_into = saved_in_place(subtask, &eligible, &dtypes, &mut builds);
    let mut sunk = vec![false; ops.len()];
    for &data in sunk_into.iter().flatten() {
        sunk[data as usize] = true;
    }
    let mut new_ops: Vec<PlanOp<Kernel>> = Vec::with_capacity(ops.len());
    let mut new_index: Vec<Option<u32>> = vec![None; ops.len()];
    let mut compiled_any = false;
    for (index, op) in ops.iter().enumerate() {
        let rewritten = if let (Some(data), Kernel::SaveRegion { file, offset }) =
            (sunk_into[index], &op.kernel)
        {
            let data = data as usize;
            let sink = SaveSink {
                file: file.clone(),
                offset: offset.clone(),
            };
            match jit_op(take_build(&mut builds, data)?, inputs, Some(sink))? {
                Compiled::Op(jit) => {
                    compiled_any = true;
                    jit
                }
                // A lone creation op saved: it and the save stay as they are.
                Compiled::NothingToCompute | Compiled::Inexact => {
                    new_index[data] = Some(new_ops.len() as u32);
                    new_ops.push(remap_args(&ops[data], &new_index)?);
                    remap_args(op, &new_index)?
                }
            }
        } else if !eligible[index] {
            remap_args(op, &new_index)?
        } else if sunk[index] {
            // Computed by the save that writes it, at the save's place.
            continue;
        } else if boundary[index] {
            match jit_op(take_build(&mut builds, index)?, inputs, None)? {
                Compiled::Op(jit) => {
                    compiled_any = true;
                    jit
                }
                // A lone creation op has no arguments: it stays as it is.
                Compiled::NothingToCompute => op.clone(),
                Compiled::Inexact => return Ok(None),
            }
        } else {
            continue;
        };
        new_index[index] = Some(new_ops.len() as u32);
        new_ops.push(rewritten);
    }
    if !compiled_any {
        return Ok(None);
    }
    let outputs = subtask
        .outputs
        .iter()
        .map(|&(target, chunk)| {
            new_index[target as usize]
                .map(|index| (index, chunk))
                .ok_or_else(|| JitError::from("internal error: a JIT rewrite lost an output"))
        })
        .collect::<Result<_, JitError>>()?;
    Ok(Some((new_ops, outputs)))
}

/// The op with its local arguments renumbered to the rewritten subtask's ops.
fn remap_args(op: &PlanOp<Kernel>, new_index: &[Option<u32>]) -> Result<PlanOp<Kernel>, JitError> {
    let args = op
        .args
        .iter()
        .map(|&arg| match arg {
            OpArg::Input(_) => Ok(arg),
            OpArg::Local(used) => new_index[used as usize]
                .map(OpArg::Local)
                .ok_or_else(|| JitError::from("internal error: a JIT rewrite lost an argument")),
        })
        .collect::<Result<_, JitError>>()?;
    Ok(PlanOp {
        kernel: op.kernel.clone(),
        args,
    })
}

/// Per op, for a save region whose data the JIT can compute straight into the file:
/// the data's op. That is an element-wise value (no reduction tail) that nothing
/// else reads and that the subtask does not publish, so it never needs a buffer.
fn saved_in_place(
    subtask: &Subtask<Kernel>,
    eligible: &[bool],
    dtypes: &[DType],
    builds: &mut [Option<select::Built>],
) -> Vec<Option<u32>> {
    let ops = &subtask.ops;
    let mut uses = vec![0u32; ops.len()];
    for arg in ops.iter().flat_map(|op| &op.args) {
        if let OpArg::Local(used) = *arg {
            uses[used as usize] += 1;
        }
    }
    for &(target, _) in &subtask.outputs {
        uses[target as usize] += 1;
    }
    ops.iter()
        .map(|op| {
            let (Kernel::SaveRegion { file, .. }, Some(&OpArg::Local(data))) =
                (&op.kernel, op.args.first())
            else {
                return None;
            };
            let index = data as usize;
            if uses[index] != 1 || !eligible.get(index).copied().unwrap_or(false) {
                return None;
            }
            if builds[index].is_none() {
                builds[index] = select::build(ops, index, dtypes);
            }
            let writable = builds[index].as_ref().is_some_and(|built| {
                built.graph.reduce.is_none() && built.graph.root_dtype() == file.dtype
            });
            writable.then_some(data)
        })
        .collect()
}

/// What compiling one value gave.
enum Compiled {
    Op(PlanOp<Kernel>),
    /// The value is a lone creation op: the interpreter's bulk fill is as fast (both
    /// use the same batch generators).
    NothingToCompute,
    /// A float sum the JIT cannot do in the interpreter's exact order.
    Inexact,
}

/// The build of an eligible op, taken by the one JIT op that computes it.
fn take_build(
    builds: &mut [Option<select::Built>],
    index: usize,
) -> Result<select::Built, JitError> {
    builds[index]
        .take()
        .ok_or_else(|| JitError::from("internal error: an eligible JIT op has no build"))
}

/// The JIT op computing the value `built` describes, into the saved file when `sink`
/// says where.
fn jit_op(
    built: select::Built,
    inputs: &[InputInfo],
    sink: Option<SaveSink>,
) -> Result<Compiled, JitError> {
    let computes = built.graph.reduce.is_some()
        || built
            .graph
            .nodes
            .iter()
            .any(|node| !matches!(node.kind, graph::NodeKind::Leaf(..)));
    if !computes {
        return Ok(Compiled::NothingToCompute);
    }
    let geometry: Vec<LeafGeometry> = leaf_geometry(&built.leaves, &built.buffer_inputs, inputs)?;
    let reduce_axes = built.reduce.as_ref().map(|spec| {
        let mut axes = spec.axes.clone();
        axes.sort_unstable();
        axes.dedup();
        axes
    });
    let axes = reduce_axes.as_deref();
    let (kernel, second) = if let Some(sink) = &sink {
        // An element-wise value (see `saved_in_place`): rows follow the file's strides.
        let shape = root_shape(&geometry)?;
        let out = LeafGeometry::within(&sink.file.shape, &sink.offset, &shape);
        let layout = row_layout_into(&geometry, &out)?;
        let key = KernelKey {
            graph: built.graph,
            variant: layout.variant,
        };
        (compiled(&key)?, None)
    } else if arg::is_arg(&built.graph) {
        let leaves = arg::position_leaves(&root_shape(&geometry)?);
        let passes = (
            arg::extreme_pass(&built.graph),
            arg::position_pass(&built.graph),
        );
        let Some((extremes, positions)) = two_passes(passes, &leaves, geometry, axes)? else {
            return Ok(Compiled::Inexact);
        };
        let pass = arg::ArgPass {
            kernel: positions,
            leaves,
            offset: built.reduce_offset.clone(),
        };
        (extremes, Some(SecondPass::Arg(Box::new(pass))))
    } else {
        match checked_kernel(built.graph, &geometry, axes)? {
            Some(kernel) => (kernel, None),
            None => return Ok(Compiled::Inexact),
        }
    };
    Ok(Compiled::Op(PlanOp {
        kernel: Kernel::Jit(Box::new(JitOp {
            kernel,
            leaves: built.leaves,
            reduce: built.reduce,
            sink,
            second,
        })),
        args: built
            .buffer_inputs
            .iter()
            .map(|&i| OpArg::Input(i))
            .collect(),
    }))
}

/// A two-pass tail's first and second kernels.
type KernelPair = (Arc<CompiledKernel>, Arc<CompiledKernel>);

/// The kernels of a two-pass tail: the first over the leaves of `geometry`, the
/// second over them plus a buffer leaf holding the first's result (of the keepdims
/// shape) and `extra` leaves; `None` if either would sum floats out of order.
fn two_passes(
    (first, second): (graph::JitGraph, graph::JitGraph),
    extra: &[LeafInstance],
    geometry: Vec<LeafGeometry>,
    reduce_axes: Option<&[usize]>,
) -> Result<Option<KernelPair>, JitError> {
    let Some(first) = checked_kernel(first, &geometry, reduce_axes)? else {
        return Ok(None);
    };
    let shape = root_shape(&geometry)?;
    let mut with_result = geometry;
    with_result.push(LeafGeometry::buffer(&keepdims_shape(&shape, reduce_axes)));
    for leaf in extra {
        with_result.push(LeafGeometry::of_leaf(leaf, || {
            Err(JitError::from(
                "internal error: an added JIT leaf is not a buffer",
            ))
        })?);
    }
    Ok(checked_kernel(second, &with_result, reduce_axes)?.map(|second| (first, second)))
}

/// The compiled kernel for `graph` over leaves of `geometry`, or `None` when it would
/// sum floats in another order than the interpreter does.
fn checked_kernel(
    graph: graph::JitGraph,
    geometry: &[LeafGeometry],
    reduce_axes: Option<&[usize]>,
) -> Result<Option<Arc<CompiledKernel>>, JitError> {
    let layout = row_layout(geometry, reduce_axes)?.grouped(&graph);
    let key = KernelKey {
        graph,
        variant: layout.variant,
    };
    let whole_runs = uses_pairwise(&key) && !layout.reduced_outside_row;
    // Rows accumulated in C order add up as the interpreter's row walk does.
    let by_rows = key.variant.mode == key::Mode::AccumulateRow
        && reduce_axes
            .is_some_and(|axes| crate::kernels::reduce::reduces_by_rows(&layout.shape, axes));
    if sums_floats(&key) && !whole_runs && !by_rows {
        // Other runs are summed in the interpreter's pairwise order only when whole.
        return Ok(None);
    }
    compiled(&key).map(Some)
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
) -> Result<Vec<LeafGeometry>, JitError> {
    let mut buffers = buffer_inputs.iter();
    leaves
        .iter()
        .map(|leaf| {
            LeafGeometry::of_leaf(leaf, || {
                buffers
                    .next()
                    .and_then(|&i| inputs.get(i as usize))
                    .map(|info| info.shape.as_slice())
                    .ok_or_else(|| {
                        JitError::from("internal error: a JIT buffer leaf without an input")
                    })
            })
        })
        .collect()
}

/// The Cranelift IR of every distinct kernel `plan` runs, in order of first use.
pub fn kernel_listing(plan: &Plan<Kernel>) -> String {
    let mut seen: HashSet<*const CompiledKernel> = HashSet::new();
    let mut listing = String::new();
    for subtask in &plan.subtasks {
        for op in subtask.ops.iter() {
            let Kernel::Jit(jit) = &op.kernel else {
                continue;
            };
            for kernel in jit.compiled() {
                if seen.insert(Arc::as_ptr(kernel)) {
                    let key = &kernel.key;
                    listing.push_str(&format!(
                        "kernel k{} ({:?}, broadcast {:?}{})\n{}\n",
                        seen.len() - 1,
                        key.variant.mode,
                        key.variant.broadcast,
                        key.graph
                            .reduce
                            .map(|op| format!(", reduce {}", op.name()))
                            .unwrap_or_default(),
                        kernel.ir
                    ));
                }
            }
        }
    }
    listing
}
