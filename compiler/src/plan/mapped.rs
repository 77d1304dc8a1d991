//! Before a run: maps every file the plan loads with `mmap_mode='r'`, so a missing,
//! changed or truncated file is reported against its `load` call (a mapped load is
//! fused into its readers, whose subtask would otherwise carry the error), and no
//! chunk of the run can fail reading it. Every other loaded file is opened here too,
//! once: its chunks read through that descriptor, so a `save` of the same path later
//! in the script (which renames a new file over it during the run) cannot change
//! what the load reads, as in Python, where the load has finished before the save.

use crate::tileable::{TileableGraph, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::jit::leaves::LeafInstance;
use marsc_runtime::kernel::{Kernel, LoadSpec, MappedNpy};
use marsc_runtime::plan::Plan;
use std::collections::HashSet;
use std::sync::Arc;

/// Maps each mapped file of `plan` once; the first failure, pointed at its `load`.
pub fn map_loaded_files(
    plan: &Plan<Kernel>,
    tileables: &TileableGraph,
) -> Result<(), Box<Diagnostic>> {
    let kernels = plan.subtasks.iter().flat_map(|subtask| &subtask.ops);
    map_files_of(kernels.map(|op| &op.kernel), tileables)
}

/// Maps each mapped file that `kernels` read once (for a plan of another kernel
/// type that wraps [`Kernel`]s, such as the REPL's).
pub fn map_files_of<'a>(
    kernels: impl Iterator<Item = &'a Kernel>,
    tileables: &TileableGraph,
) -> Result<(), Box<Diagnostic>> {
    let mut seen: HashSet<*const MappedNpy> = HashSet::new();
    let mut opened: HashSet<*const LoadSpec> = HashSet::new();
    for kernel in kernels {
        if let Kernel::Load { spec, .. } = kernel {
            if spec.mapped.is_none() && opened.insert(Arc::as_ptr(spec)) {
                if let Err(message) = spec.opened.file(&spec.path, &spec.header) {
                    return Err(load_error(message, spec.label, tileables));
                }
            }
        }
        for file in mapped_files(kernel) {
            if !seen.insert(Arc::as_ptr(file)) {
                continue;
            }
            if let Err(message) = file.data() {
                return Err(load_error(message, file.label, tileables));
            }
        }
    }
    Ok(())
}

/// An error opening or mapping a file, pointed at the `load` call tagged `label`.
fn load_error(message: String, label: u32, tileables: &TileableGraph) -> Box<Diagnostic> {
    let load = TileableId(label);
    let span = if load.index() < tileables.len() {
        tileables.node(load).span
    } else {
        Span::default()
    };
    Box::new(Diagnostic::error(message, span).with_label("while loading this"))
}

/// The mapped files one kernel reads.
fn mapped_files(kernel: &Kernel) -> Vec<&Arc<MappedNpy>> {
    match kernel {
        Kernel::Load { spec, .. } => spec.mapped.iter().collect(),
        Kernel::Jit(jit) => jit
            .leaves
            .iter()
            .filter_map(|leaf| match leaf {
                LeafInstance::Mapped { file, .. } => Some(file),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
