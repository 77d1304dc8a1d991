//! A failed run, told in terms of the script: the subtask's label leads back to the
//! tileable it computes and so to the source expression (or, for a save, to the
//! `save` statement), which the diagnostic points at with its line and source text.
//! Temporary files of saves that never committed are removed.

use crate::tileable::{Output, TileableGraph, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::exec::ExecError;
use marsc_runtime::kernel::Kernel;
use marsc_runtime::plan::Plan;

/// The diagnostic for a failed run, or the plain message when no span fits.
pub fn failure_diagnostic(
    error: &ExecError,
    plan: &Plan<Kernel>,
    tileables: &TileableGraph,
) -> Result<Diagnostic, String> {
    let ExecError::SubtaskFailed {
        subtask,
        label,
        message,
        ..
    } = error
    else {
        return Err(error.to_string());
    };
    let tileable = TileableId(*label);
    if tileable.index() >= tileables.len() {
        return Err(message.clone());
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
    Ok(Diagnostic::error(message.clone(), span).with_label(label_text))
}

fn saved_path(op: &marsc_runtime::plan::PlanOp<Kernel>) -> Option<&std::path::Path> {
    match &op.kernel {
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
        } if saved == path && *saved_tensor == tensor => Some(*span),
        _ => None,
    })
}

/// Removes the temporary file of every save in the plan, where one was left behind.
pub fn remove_partial_saves(plan: &Plan<Kernel>) {
    for subtask in &plan.subtasks {
        for op in &subtask.ops {
            if let Kernel::SaveInit(file) = &op.kernel {
                // Absent is the normal case (committed, or never started).
                file.remove_temporary();
            }
        }
    }
}
