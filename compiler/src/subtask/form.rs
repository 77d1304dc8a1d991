//! Forming subtasks: picks the chunks the outputs need and lays out the groups the
//! fusion pass ([`crate::fuse`]) chose as subtasks. A group is named by its root (the
//! chunk whose value leaves it); subtasks are numbered in root order, which is
//! topological because a group is read from outside only through its root, and each
//! subtask's ops are in chunk order. Priorities start at 0; the scheduling pass
//! ([`super::schedule_subtasks`]) sets them.

use super::{Subtask, SubtaskGraph, NOT_RUN};
use crate::chunk::{ChunkGraph, ChunkId, ChunkOutput};

/// The SubtaskGraph of the groups in `roots` (per chunk: its group's root chunk, or
/// [`crate::fuse::NOT_RUN`]); the table is reused as the chunk-to-subtask table.
pub(crate) fn from_roots(
    chunks: &ChunkGraph,
    mut roots: Vec<u32>,
    results: Vec<ChunkId>,
) -> SubtaskGraph {
    let mut subtasks = number_roots(&mut roots);
    let subtask_of = point_members_at_subtasks(roots, &mut subtasks);
    let ops = lay_out_ops(&subtask_of, &mut subtasks);
    let published = published_chunks(chunks, &ops, &subtask_of, &results);
    SubtaskGraph {
        subtasks,
        ops,
        subtask_of,
        published,
        results,
    }
}

/// Replaces each root's entry with its subtask id (roots numbered in chunk order) and
/// returns the subtasks, still empty. A subtask id is at most its root's chunk id,
/// while a member's entry (its root) is above its own id: the two stay apart.
fn number_roots(roots: &mut [u32]) -> Vec<Subtask> {
    let mut subtasks = Vec::new();
    for (chunk, entry) in roots.iter_mut().enumerate() {
        if *entry == chunk as u32 {
            *entry = subtasks.len() as u32;
            subtasks.push(Subtask {
                ops_start: 0,
                ops_len: 0,
                priority: 0,
                worker: None,
            });
        }
    }
    subtasks
}

/// Turns every member's entry into its root's subtask id, counting each subtask's ops.
fn point_members_at_subtasks(mut table: Vec<u32>, subtasks: &mut [Subtask]) -> Vec<u32> {
    for chunk in 0..table.len() {
        let entry = table[chunk];
        if entry == NOT_RUN {
            continue;
        }
        let subtask = if entry as usize > chunk {
            table[entry as usize]
        } else {
            entry
        };
        table[chunk] = subtask;
        subtasks[subtask as usize].ops_len += 1;
    }
    table
}

/// Every subtask's ops as one list, each subtask's contiguous and in chunk order.
fn lay_out_ops(subtask_of: &[u32], subtasks: &mut [Subtask]) -> Vec<ChunkId> {
    let mut total = 0u32;
    for subtask in subtasks.iter_mut() {
        subtask.ops_start = total;
        total += subtask.ops_len;
        // Counts up again as the ops are placed.
        subtask.ops_len = 0;
    }
    let mut ops = vec![ChunkId(0); total as usize];
    for (chunk, &owner) in subtask_of.iter().enumerate() {
        if owner != NOT_RUN {
            let subtask = &mut subtasks[owner as usize];
            ops[(subtask.ops_start + subtask.ops_len) as usize] = ChunkId(chunk as u32);
            subtask.ops_len += 1;
        }
    }
    ops
}

/// The chunks printed by `outputs` (the program's, or a prefix of them), in program
/// order, each once.
pub(crate) fn result_chunks(chunks: &ChunkGraph, outputs: &[ChunkOutput]) -> Vec<ChunkId> {
    let mut seen = vec![false; chunks.num_chunks()];
    let mut results = Vec::new();
    for output in outputs {
        let ChunkOutput::Print { items, .. } = output else {
            continue;
        };
        for item in items {
            if let Some(step) = item.printed_step() {
                for chunk in chunks.step(step).chunk_ids() {
                    if !std::mem::replace(&mut seen[chunk.index()], true) {
                        results.push(chunk);
                    }
                }
            }
        }
    }
    results
}

/// Which chunks `outputs` depend on: the results, every save's commit, and
/// everything they read. Chunk ids are topological, so one backward sweep suffices.
pub(crate) fn needed_chunks(
    chunks: &ChunkGraph,
    outputs: &[ChunkOutput],
    results: &[ChunkId],
) -> Vec<bool> {
    let mut needed = vec![false; chunks.num_chunks()];
    for &chunk in results {
        needed[chunk.index()] = true;
    }
    for output in outputs {
        if let ChunkOutput::Save { commit, .. } = output {
            for chunk in chunks.step(*commit).chunk_ids() {
                needed[chunk.index()] = true;
            }
        }
    }
    for chunk in (0..chunks.num_chunks() as u32).rev().map(ChunkId) {
        if needed[chunk.index()] {
            for input in chunks.inputs(chunk) {
                needed[input.index()] = true;
            }
        }
    }
    needed
}

/// Chunks read by a subtask other than their own, and the results.
fn published_chunks(
    chunks: &ChunkGraph,
    ops: &[ChunkId],
    subtask_of: &[u32],
    results: &[ChunkId],
) -> Vec<bool> {
    let mut published = vec![false; chunks.num_chunks()];
    for &chunk in ops {
        let own = subtask_of[chunk.index()];
        for input in chunks.inputs(chunk) {
            if subtask_of[input.index()] != own {
                published[input.index()] = true;
            }
        }
    }
    for &chunk in results {
        published[chunk.index()] = true;
    }
    published
}
