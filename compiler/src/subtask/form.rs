//! Forming subtasks: picks the chunks the outputs need and groups them into
//! subtasks. Without fusion each chunk operation is its own subtask, numbered in
//! chunk order (which is topological). Priorities start at 0; the scheduling pass
//! ([`super::schedule_subtasks`]) sets them.

use super::{Subtask, SubtaskGraph, NOT_RUN};
use crate::chunk::{ChunkGraph, ChunkId, ChunkOutput, PrintItem};

/// One subtask per chunk operation that an output needs.
pub fn form_subtasks(chunks: &ChunkGraph) -> SubtaskGraph {
    let results = result_chunks(chunks);
    let needed = needed_chunks(chunks, &results);
    let mut subtask_of = vec![NOT_RUN; chunks.num_chunks()];
    let mut ops = Vec::new();
    let mut subtasks = Vec::new();
    for chunk in chunks.chunk_ids().filter(|c| needed[c.index()]) {
        subtask_of[chunk.index()] = subtasks.len() as u32;
        subtasks.push(Subtask {
            ops_start: ops.len() as u32,
            ops_len: 1,
            priority: 0,
            worker: None,
        });
        ops.push(chunk);
    }
    let published = published_chunks(chunks, &ops, &subtask_of, &results);
    SubtaskGraph {
        subtasks,
        ops,
        subtask_of,
        published,
        results,
    }
}

/// The chunks of every printed tensor, in program order, each once.
fn result_chunks(chunks: &ChunkGraph) -> Vec<ChunkId> {
    let mut seen = vec![false; chunks.num_chunks()];
    let mut results = Vec::new();
    for output in &chunks.outputs {
        let ChunkOutput::Print { items, .. } = output else {
            continue;
        };
        for item in items {
            if let PrintItem::Tensor(step) = item {
                for chunk in chunks.step(*step).chunk_ids() {
                    if !std::mem::replace(&mut seen[chunk.index()], true) {
                        results.push(chunk);
                    }
                }
            }
        }
    }
    results
}

/// Which chunks some output depends on: the results, every save's commit, and
/// everything they read. Chunk ids are topological, so one backward sweep suffices.
fn needed_chunks(chunks: &ChunkGraph, results: &[ChunkId]) -> Vec<bool> {
    let mut needed = vec![false; chunks.num_chunks()];
    for &chunk in results {
        needed[chunk.index()] = true;
    }
    for output in &chunks.outputs {
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
