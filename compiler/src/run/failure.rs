//! A failed run, told in terms of the script: the subtask's label leads back to the
//! tileable it computes and so to the source expression (or, for a save, to the
//! `save` statement), which the diagnostic points at with its line and source text.
//! Temporary files of saves that never committed are removed.
//!
//! As in Python, what precedes the failing statement still happens: the failing
//! statement is the first output (in program order) that depends on the failed
//! subtask ([`first_failed_output`]), and the outputs before it are planned again
//! on their own ([`plan_prefix`]: only the chunks they need) and run, so their
//! prints appear before the error. If that run fails too, its failure is earlier in
//! program order, and the same is done again before it.

use crate::chunk::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::driver::{plan_needed, Options};
use crate::error::{InternalError, JobError};
use crate::run::execute::PlannedKernel;
use crate::subtask::form::{needed_chunks, result_chunks};
use crate::subtask::{SubtaskGraph, SubtaskId};
use crate::tileable::{Output, TileableGraph, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::exec::ExecError;
use marsc_runtime::plan::Plan;

/// The error of a failed run: a diagnostic at the failing expression, or the
/// executor's error when no span fits.
pub fn failure_error<K: PlannedKernel>(
    error: &ExecError,
    plan: &Plan<K>,
    tileables: &TileableGraph,
) -> JobError {
    let ExecError::SubtaskFailed {
        subtask,
        label,
        message,
        ..
    } = error
    else {
        return exec_error(error);
    };
    let tileable = TileableId(*label);
    if tileable.index() >= tileables.len() {
        return JobError::internal("run", message.clone());
    }
    let save_path = plan
        .subtasks
        .get(subtask.index())
        .and_then(|subtask| subtask.ops.iter().find_map(saved_path));
    let (span, label_text) = match save_path {
        Some(path) => (
            save_span(tileables, tileable, path).unwrap_or(tileables.node(tileable).span),
            "while saving this",
        ),
        None => (tileables.node(tileable).span, "while computing this"),
    };
    JobError::RunFailed(Box::new(
        Diagnostic::error(message.clone(), span).with_label(label_text),
    ))
}

/// An executor error that no expression explains, typed.
pub fn exec_error(error: &ExecError) -> JobError {
    match error {
        ExecError::Cancelled => JobError::Cancelled,
        ExecError::InvalidOptions(message) => JobError::Limit(message.clone()),
        ExecError::InvalidPlan(message) => JobError::internal("plan", message.clone()),
        ExecError::Internal(message) => JobError::internal("run", message.clone()),
        ExecError::SubtaskFailed { .. } => JobError::internal("run", error.to_string()),
    }
}

fn saved_path<K: PlannedKernel>(op: &marsc_runtime::plan::PlanOp<K>) -> Option<&std::path::Path> {
    match op.kernel.kernel()? {
        Kernel::SaveInit(file) | Kernel::SaveCommit(file) | Kernel::SaveRegion { file, .. } => {
            Some(&file.path)
        }
        _ => None,
    }
}

/// The `save` statement writing `tensor` to `path`.
fn save_span(
    tileables: &TileableGraph,
    tensor: TileableId,
    path: &std::path::Path,
) -> Option<Span> {
    tileables.outputs.iter().find_map(|output| match output {
        Output::Save {
            path: saved,
            tensor: saved_tensor,
            span,
            ..
        } if saved == path && *saved_tensor == tensor => Some(*span),
        _ => None,
    })
}

/// The index of the first output that depends on `failed` (reads one of its chunks,
/// directly or through others), or the number of outputs if none does.
pub fn first_failed_output(
    chunks: &ChunkGraph,
    subtasks: &SubtaskGraph,
    failed: SubtaskId,
) -> usize {
    let mut tainted = vec![false; chunks.num_chunks()];
    if failed.index() < subtasks.len() {
        for &chunk in subtasks.ops(failed) {
            tainted[chunk.index()] = true;
        }
    }
    // Chunk ids are topological, so one forward sweep finds every dependent.
    for chunk in chunks.chunk_ids() {
        if !tainted[chunk.index()] && chunks.inputs(chunk).iter().any(|i| tainted[i.index()]) {
            tainted[chunk.index()] = true;
        }
    }
    let step_tainted = |step: StepId| chunks.step(step).chunk_ids().any(|c| tainted[c.index()]);
    chunks
        .outputs
        .iter()
        .position(|output| match output {
            ChunkOutput::Print { items, .. } => items
                .iter()
                .filter_map(PrintItem::printed_step)
                .any(step_tainted),
            ChunkOutput::Save { commit, .. } => step_tainted(*commit),
        })
        .unwrap_or(chunks.outputs.len())
}

/// The first output of the statement whose output `index` is: a statement with
/// several outputs (`savez`, one save per member) fails or runs as a whole.
pub fn statement_start(tileables: &TileableGraph, mut index: usize) -> usize {
    let outputs = &tileables.outputs;
    while index > 0 && index < outputs.len() && outputs[index - 1].span() == outputs[index].span() {
        index -= 1;
    }
    index
}

/// The subtasks and plan of the first `count` outputs alone, fused, scheduled and
/// compiled as the whole program was (with fresh save files and mappings).
pub fn plan_prefix(
    chunks: &ChunkGraph,
    count: usize,
    options: &Options,
) -> Result<(SubtaskGraph, Plan<Kernel>), InternalError> {
    let outputs = &chunks.outputs[..count];
    let results = result_chunks(chunks, outputs);
    let needed = needed_chunks(chunks, outputs, &results);
    let (subtasks, plan, _) = plan_needed(chunks, &needed, results, options)?;
    Ok((subtasks, plan))
}
