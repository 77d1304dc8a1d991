//! The memory side of a run: every chunk's projected bytes (from its shape and
//! dtype, known at compile time), the check, before anything runs, that each
//! subtask alone fits in `--memory-limit`, told in terms of the script, and
//! [`check_saves`]: the saved tensors fit their file systems' free space, so an
//! impossible run is refused in a moment instead of failing after hours. (A printed
//! tensor needs no such check: past NumPy's threshold only its corners are computed.)

use crate::chunk::{ChunkGraph, ChunkOp};
use crate::error::JobError;
use crate::tileable::{Output, TileableGraph, TileableId};
use marsc_grammar::Diagnostic;
use marsc_runtime::exec::check_memory;
use marsc_runtime::paths::directory_of;
use marsc_runtime::plan::Plan;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// Bytes per element of a partial reduction: the widest partials (variance,
/// arg reductions) hold two arrays of up to 8-byte elements.
const REDUCE_STATE_ITEM_BYTES: u64 = 16;

/// The projected bytes of every chunk, indexed by chunk id (the plan's ids are the
/// chunk graph's).
pub fn projected_chunk_bytes(chunks: &ChunkGraph) -> Arc<[u64]> {
    chunks
        .chunk_ids()
        .map(|id| {
            let step = chunks.step_of(id);
            let item_bytes = match step.op {
                ChunkOp::Reduce(ref stage) if stage.holds_state() => REDUCE_STATE_ITEM_BYTES,
                ChunkOp::SaveInit { .. }
                | ChunkOp::SaveRegion { .. }
                | ChunkOp::SaveCommit { .. } => 0,
                _ => step.dtype.itemsize() as u64,
            };
            let elements = chunks
                .data_shape(id)
                .iter()
                .fold(1u64, |total, &extent| total.saturating_mul(extent as u64));
            elements.saturating_mul(item_bytes)
        })
        .collect()
}

/// Refuses, before running, a plan with a subtask that alone needs more than
/// `limit` bytes; the error points at the statement it computes.
pub fn check_fits<K>(
    plan: &Plan<K>,
    projected: &[u64],
    limit: u64,
    tileables: &TileableGraph,
) -> Result<(), JobError> {
    let estimate =
        |chunk: marsc_runtime::plan::ChunkId| projected.get(chunk.index()).copied().unwrap_or(0);
    let Err((subtask, needed)) = check_memory(plan, limit, estimate) else {
        return Ok(());
    };
    // Exact byte counts: rounded units can make both figures read the same.
    let message = format!(
        "one step needs {needed} bytes at once, more than --memory-limit {} ({limit} bytes)",
        format_size(limit)
    );
    let hint = format!(
        "use smaller chunks (e.g. --chunk-bytes {}) or a larger --memory-limit",
        format_size(suggested_chunk_bytes(limit, needed))
    );
    let tileable = plan
        .subtasks
        .get(subtask.index())
        .map(|subtask| TileableId(subtask.label))
        .filter(|tileable| tileable.index() < tileables.len());
    match tileable {
        Some(tileable) => Err(JobError::RunFailed(Box::new(
            Diagnostic::error(message, tileables.node(tileable).span)
                .with_label("this step does not fit in memory")
                .with_note(hint),
        ))),
        None => Err(JobError::Limit(format!("{message}; {hint}"))),
    }
}

/// Refuses saves larger than their file system's free space (all saves to one file
/// system counted together, since each is written whole before its rename). Needs
/// only the TileableGraph, so a run checks it before tiling.
pub fn check_saves(tileables: &TileableGraph) -> Result<(), JobError> {
    let mut per_file_system: HashMap<u64, u64> = HashMap::new();
    for output in &tileables.outputs {
        let Output::Save {
            path, tensor, span, ..
        } = output
        else {
            continue;
        };
        let node = tileables.node(*tensor);
        let bytes = node
            .shape
            .iter()
            .fold(node.dtype.itemsize() as u64, |bytes, &len| {
                bytes.saturating_mul(len as u64)
            })
            .saturating_add(NPY_HEADER_BYTES);
        let Some((file_system, free)) = free_disk_bytes(path) else {
            continue;
        };
        let needed = per_file_system.entry(file_system).or_insert(0);
        *needed = needed.saturating_add(bytes);
        if *needed > free {
            let message = format!(
                "saving this needs {} bytes on the file system of '{}', which has {free} bytes free",
                *needed,
                path.display()
            );
            return Err(JobError::RunFailed(Box::new(
                Diagnostic::error(message, *span)
                    .with_label("this cannot fit")
                    .with_help("save to a file system with more room, or save less"),
            )));
        }
    }
    Ok(())
}

/// The most a `.npy` header of a supported array takes (format 1.0 pads to 64 bytes;
/// a long shape needs a few more).
const NPY_HEADER_BYTES: u64 = 4096;

/// The file system holding `path` (its directory: the file may not exist yet) and
/// the bytes an unprivileged writer may still use on it; `None` where that cannot be
/// told (the save reports any problem with its directory itself).
fn free_disk_bytes(path: &Path) -> Option<(u64, u64)> {
    let stat = rustix::fs::statvfs(directory_of(path)).ok()?;
    Some((stat.f_fsid, stat.f_bavail.saturating_mul(stat.f_frsize)))
}

/// A chunk budget that scales the offending step down to fit, with room to spare
/// for the other chunks it reads.
fn suggested_chunk_bytes(limit: u64, needed: u64) -> u64 {
    // The step's chunks scale with the chunk budget; a quarter of the limit leaves
    // room for a step that reads up to three chunks besides its output.
    let quarter = limit / 4;
    quarter.clamp(1, needed.max(1))
}

/// `bytes` in the largest binary unit that divides it into a whole number (rounded
/// down), so `--chunk-bytes` parses it back.
fn format_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    UNITS.iter().find(|&&(unit, _)| bytes >= unit).map_or_else(
        || format!("{bytes}B"),
        |&(unit, name)| format!("{}{name}", bytes / unit),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print_in_whole_units_that_parse_back() {
        assert_eq!(format_size(512), "512B");
        assert_eq!(format_size(3 << 20), "3MiB");
        assert_eq!(format_size((1 << 20) + 5), "1MiB");
        assert_eq!(
            crate::size::parse_size(&format_size(40 << 10)),
            Ok(40 << 10)
        );
    }

    #[test]
    fn the_suggestion_is_smaller_than_the_limit() {
        assert_eq!(suggested_chunk_bytes(1 << 20, 10 << 20), 256 << 10);
        assert_eq!(suggested_chunk_bytes(100, 10), 10);
        assert_eq!(suggested_chunk_bytes(2, 10), 1);
    }
}
