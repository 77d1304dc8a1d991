//! The memory side of a run: every chunk's projected bytes (from its shape and
//! dtype, known at compile time), the check, before anything runs, that each
//! subtask alone fits in `--memory-limit`, told in terms of the script, and
//! [`check_outputs`]: what the outputs must hold at once (a printed tensor in
//! memory, a saved one on its file system) fits what the machine has, so an
//! impossible run is refused in a moment instead of failing after hours.

use crate::chunk::{ChunkGraph, ChunkOp, ChunkOutput, PrintItem};
use crate::driver::DriverError;
use crate::tileable::{Output, TileableGraph, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::exec::check_memory;
use marsc_runtime::kernel::Kernel;
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
                ChunkOp::ReduceMap { .. } | ChunkOp::ReduceCombine { .. } => {
                    REDUCE_STATE_ITEM_BYTES
                }
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
pub fn check_fits(
    plan: &Plan<Kernel>,
    projected: &[u64],
    limit: u64,
    tileables: &TileableGraph,
) -> Result<(), DriverError> {
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
        Some(tileable) => Err(DriverError::RunFailed(Box::new(
            Diagnostic::error(message, tileables.node(tileable).span)
                .with_label("this step does not fit in memory")
                .with_note(hint),
        ))),
        None => Err(DriverError::Runtime(format!("{message}; {hint}"))),
    }
}

/// Refuses, before running, outputs that cannot be held: [`check_prints`] and
/// [`check_saves`].
pub fn check_outputs(
    chunks: &ChunkGraph,
    tileables: &TileableGraph,
    projected: &[u64],
) -> Result<(), DriverError> {
    check_saves(tileables)?;
    check_prints(chunks, tileables, projected)
}

/// Refuses a printed tensor (its result chunks and the whole tensor assembled from
/// them) larger than the memory this process may use.
pub fn check_prints(
    chunks: &ChunkGraph,
    tileables: &TileableGraph,
    projected: &[u64],
) -> Result<(), DriverError> {
    let Some(memory) = memory_bytes() else {
        return Ok(());
    };
    for output in &chunks.outputs {
        let ChunkOutput::Print { items, .. } = output else {
            continue;
        };
        for item in items {
            let PrintItem::Tensor(step) = item else {
                continue;
            };
            let held: u64 = chunks
                .step(*step)
                .chunk_ids()
                .map(|chunk| projected.get(chunk.index()).copied().unwrap_or(0))
                .fold(0u64, u64::saturating_add);
            // The chunks, and the tensor assembled from them.
            let needed = held.saturating_mul(2);
            if needed > memory {
                let tileable = chunks.step(*step).tileable;
                let span =
                    (tileable.index() < tileables.len()).then(|| tileables.node(tileable).span);
                return Err(too_big(
                    format!(
                        "printing this tensor needs {needed} bytes in memory at once, more than the {memory} bytes this machine has"
                    ),
                    span,
                    "print a part of it (a slice, or a reduction such as `.sum()`), or save it",
                ));
            }
        }
    }
    Ok(())
}

/// Refuses saves larger than their file system's free space (all saves to one file
/// system counted together, since each is written whole before its rename). Needs
/// only the TileableGraph, so a run checks it before tiling.
pub fn check_saves(tileables: &TileableGraph) -> Result<(), DriverError> {
    let mut per_file_system: HashMap<u64, u64> = HashMap::new();
    for output in &tileables.outputs {
        let Output::Save { path, tensor, span } = output else {
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
            return Err(too_big(
                format!(
                    "saving this needs {} bytes on the file system of '{}', which has {free} bytes free",
                    *needed,
                    path.display()
                ),
                Some(*span),
                "save to a file system with more room, or save less",
            ));
        }
    }
    Ok(())
}

/// The most a `.npy` header of a supported array takes (format 1.0 pads to 64 bytes;
/// a long shape needs a few more).
const NPY_HEADER_BYTES: u64 = 4096;

fn too_big(message: String, span: Option<Span>, help: &str) -> DriverError {
    match span {
        Some(span) => DriverError::RunFailed(Box::new(
            Diagnostic::error(message, span)
                .with_label("this cannot fit")
                .with_help(help.to_string()),
        )),
        None => DriverError::Runtime(format!("{message}; {help}")),
    }
}

/// The file system holding `path` (its directory: the file may not exist yet) and
/// the bytes an unprivileged writer may still use on it; `None` where that cannot be
/// told (the save reports any problem with its directory itself).
fn free_disk_bytes(path: &Path) -> Option<(u64, u64)> {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let stat = rustix::fs::statvfs(directory).ok()?;
    Some((stat.f_fsid, stat.f_bavail.saturating_mul(stat.f_frsize)))
}

/// The memory this process may use: the machine's (`MemTotal`), or less where a
/// cgroup limit or an address-space limit (`ulimit -v`) says so; `None` when none of
/// them can be read.
pub fn memory_bytes() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| meminfo_total(&text));
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok());
    let address_space = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|text| address_space_limit(&text));
    [total, cgroup, address_space].into_iter().flatten().min()
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The soft `Max address space` of `/proc/self/limits`, when it is not unlimited.
fn address_space_limit(text: &str) -> Option<u64> {
    let line = text
        .lines()
        .find(|line| line.starts_with("Max address space"))?;
    line.trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
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
    fn memory_figures_are_read_from_proc() {
        assert_eq!(
            meminfo_total("MemTotal:       24567892 kB\nMemFree: 1 kB\n"),
            Some(24567892 * 1024)
        );
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), None);
        let limits = "Max address space         4294967296           unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(4294967296));
    }

    #[test]
    fn the_suggestion_is_smaller_than_the_limit() {
        assert_eq!(suggested_chunk_bytes(1 << 20, 10 << 20), 256 << 10);
        assert_eq!(suggested_chunk_bytes(100, 10), 10);
        assert_eq!(suggested_chunk_bytes(2, 10), 1);
    }
}
