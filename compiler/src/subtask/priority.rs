//! The placeholder priority pass (the scheduling passes of a later issue replace
//! it): a depth-first post-order from the outputs, in program order. A chunk gets its
//! number only after everything it reads, and a branch is numbered completely before
//! the next one starts, so when the executor takes ready subtasks smallest priority
//! first it finishes one branch of a reduction tree (and frees its leaves) before
//! starting the next, instead of computing every leaf first and holding them all.

use super::SubtaskGraph;
use crate::chunk::{ChunkGraph, ChunkId, ChunkOutput, PrintItem};

/// Sets every subtask's priority to the post-order position of its last chunk.
pub fn assign_priority(graph: &mut SubtaskGraph, chunks: &ChunkGraph) {
    let order = post_order(chunks, &roots(chunks));
    let mut position = vec![0i64; chunks.num_chunks()];
    for (rank, chunk) in order.iter().enumerate() {
        position[chunk.index()] = rank as i64;
    }
    for id in graph.ids() {
        let last = graph
            .ops(id)
            .iter()
            .map(|chunk| position[chunk.index()])
            .max()
            .unwrap_or(0);
        graph.subtask_mut(id).priority = last;
    }
}

/// The chunks the outputs start from, in program order.
fn roots(chunks: &ChunkGraph) -> Vec<ChunkId> {
    let mut roots = Vec::new();
    for output in &chunks.outputs {
        match output {
            ChunkOutput::Print { items, .. } => {
                for item in items {
                    if let PrintItem::Tensor(step) = item {
                        roots.extend(chunks.step(*step).chunk_ids());
                    }
                }
            }
            ChunkOutput::Save { commit, .. } => roots.extend(chunks.step(*commit).chunk_ids()),
        }
    }
    roots
}

/// Every chunk reachable from `roots`, each after its inputs (in input order) and
/// each once. Iterative, since a scan or a long chain would overflow a recursion.
pub fn post_order(chunks: &ChunkGraph, roots: &[ChunkId]) -> Vec<ChunkId> {
    let mut visited = vec![false; chunks.num_chunks()];
    let mut order = Vec::new();
    let mut stack: Vec<(ChunkId, usize)> = Vec::new();
    for &root in roots {
        if std::mem::replace(&mut visited[root.index()], true) {
            continue;
        }
        stack.push((root, 0));
        while let Some((chunk, next)) = stack.last_mut() {
            let inputs = chunks.inputs(*chunk);
            match inputs.get(*next) {
                Some(&input) => {
                    *next += 1;
                    if !std::mem::replace(&mut visited[input.index()], true) {
                        stack.push((input, 0));
                    }
                }
                None => {
                    order.push(*chunk);
                    stack.pop();
                }
            }
        }
    }
    order
}
