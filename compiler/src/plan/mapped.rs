//! Before a run: opens the reader of every store the plan loads, so a missing,
//! changed or truncated file is reported against its `load` call, and no chunk of
//! the run fails opening it. A file loaded with `mmap_mode='r'` is mapped here (a
//! mapped load is fused into its readers, whose subtask would otherwise carry the
//! error); any other loaded file is opened here, once: its chunks read through that
//! descriptor, so a `save` of the same path later in the script (which renames a new
//! file over it during the run) cannot change what the load reads, as in Python,
//! where the load has finished before the save.

use crate::tileable::{TileableGraph, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::jit::leaves::LeafInstance;
use marsc_runtime::plan::Plan;
use marsc_runtime::storage::ReaderRef;
use std::collections::HashSet;

/// Opens each reader of `plan` once; the first failure, pointed at its `load`.
pub fn map_loaded_files(
    plan: &Plan<Kernel>,
    tileables: &TileableGraph,
) -> Result<(), Box<Diagnostic>> {
    let kernels = plan.subtasks.iter().flat_map(|subtask| subtask.ops.iter());
    map_files_of(kernels.map(|op| &op.kernel), tileables)
}

/// Opens each reader that `kernels` read once (for a plan of another kernel type
/// that wraps [`Kernel`]s, such as the REPL's).
pub fn map_files_of<'a>(
    kernels: impl Iterator<Item = &'a Kernel>,
    tileables: &TileableGraph,
) -> Result<(), Box<Diagnostic>> {
    let mut opened: HashSet<*const ()> = HashSet::new();
    for kernel in kernels {
        for reader in readers(kernel) {
            if !opened.insert(reader.as_ptr()) {
                continue;
            }
            if let Err(error) = reader.open() {
                return Err(load_error(error.to_string(), reader.label(), tileables));
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

/// The readers one kernel reads through.
fn readers(kernel: &Kernel) -> Vec<&ReaderRef> {
    match kernel {
        Kernel::Load { spec, .. } => vec![&spec.reader],
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
