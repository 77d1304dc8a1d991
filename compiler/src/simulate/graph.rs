//! From the compiler's SubtaskGraph to the simulator's [`SimGraph`]: each subtask's
//! worker and priority as scheduled, the published chunks it reads and writes with
//! their projected bytes (`run/preflight.rs`, what `--memory-limit` budgets with), the
//! bytes it streams (its inputs once, and every value it computes), and the flops
//! of its block matrix products.

use super::{SimChunk, SimGraph, SimTask};
use crate::chunk::{ChunkGraph, ChunkId, ChunkOp};
use crate::subtask::SubtaskGraph;
use std::collections::HashMap;

/// The plan of `subtasks` as a [`SimGraph`]; `projected` holds every chunk's bytes,
/// indexed by chunk id (`run::preflight::projected_chunk_bytes`).
pub fn from_subtasks(subtasks: &SubtaskGraph, chunks: &ChunkGraph, projected: &[u64]) -> SimGraph {
    let mut index: HashMap<ChunkId, u32> = HashMap::new();
    let mut sim_chunks = Vec::new();
    let mut tasks = Vec::with_capacity(subtasks.len());
    for id in subtasks.ids() {
        let outputs: Vec<u32> = subtasks
            .outputs(id)
            .map(|chunk| {
                let at = sim_chunks.len() as u32;
                sim_chunks.push(SimChunk {
                    bytes: projected.get(chunk.index()).copied().unwrap_or(0),
                    producer: id.0,
                });
                index.insert(chunk, at);
                at
            })
            .collect();
        // Ids are in topological order, so every input's producer came first; a
        // chunk no subtask computes is there from the start and costs nothing.
        let read = subtasks.inputs(chunks, id);
        let bytes = |chunk: &ChunkId| projected.get(chunk.index()).copied().unwrap_or(0);
        // What it reads from other subtasks, once, and every value it computes (a
        // fused chain keeps its intermediates in registers, but still computes them).
        let work_bytes =
            read.iter().map(bytes).sum::<u64>() + subtasks.ops(id).iter().map(bytes).sum::<u64>();
        let inputs = read
            .into_iter()
            .filter_map(|chunk| index.get(&chunk).copied())
            .collect();
        let subtask = subtasks.subtask(id);
        tasks.push(SimTask {
            worker: subtask.worker,
            priority: subtask.priority,
            inputs,
            outputs,
            work_bytes,
            flops: subtasks
                .ops(id)
                .iter()
                .map(|&op| matmul_flops(chunks, op))
                .sum(),
        });
    }
    SimGraph {
        tasks,
        chunks: sim_chunks,
    }
}

/// `2 r k c` for each `(r, k) @ (k, c)` block pair of a `MatMulBlock`; 0 for
/// anything else (its cost is its bytes).
fn matmul_flops(chunks: &ChunkGraph, op: ChunkId) -> u64 {
    if !matches!(chunks.step_of(op).op, ChunkOp::MatMulBlock { .. }) {
        return 0;
    }
    chunks
        .inputs(op)
        .chunks_exact(2)
        .map(|pair| {
            let (a, b) = (chunks.data_shape(pair[0]), chunks.data_shape(pair[1]));
            let rows = a.first().copied().unwrap_or(1) as u64;
            let inner = a.last().copied().unwrap_or(1) as u64;
            let cols = b.last().copied().unwrap_or(1) as u64;
            2 * rows * inner * cols
        })
        .sum()
}
