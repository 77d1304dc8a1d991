//! The `--emit subtask --format dot` rendering: one Graphviz node per subtask
//! (labelled with its ops, priority and worker, and filled with its worker's colour,
//! as in the Mars design's pictures) and an edge for every chunk one subtask
//! reads from another. Above [`SUBTASK_LIMIT`] subtasks only the first ones are drawn,
//! with a note saying how many were left out, so the picture stays usable.

use super::{SubtaskGraph, SubtaskId};
use crate::chunk::ChunkGraph;
use std::fmt::Write;

/// Subtasks drawn at most.
pub const SUBTASK_LIMIT: usize = 400;

/// The graph as Graphviz text.
pub fn to_dot(graph: &SubtaskGraph, chunks: &ChunkGraph) -> String {
    let mut out = String::from(
        "digraph subtasks {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    let shown = graph.len().min(SUBTASK_LIMIT);
    for id in graph.ids().take(shown) {
        let _ = writeln!(
            out,
            "  {id} [label=\"{}\"{}];",
            label(graph, chunks, id),
            fill(graph.subtask(id).worker)
        );
    }
    for id in graph.ids().take(shown) {
        for input in graph.inputs(chunks, id) {
            if let Some(producer) = graph.subtask_of(input) {
                let _ = writeln!(out, "  {producer} -> {id} [label=\"{input}\"];");
            }
        }
    }
    if graph.len() > shown {
        let _ = writeln!(
            out,
            "  more [shape=plaintext, label=\"… {} more subtasks\"];",
            graph.len() - shown
        );
    }
    out.push_str("}\n");
    out
}

/// Pastel fills, one per worker (cycled past eight workers).
const WORKER_COLOURS: [&str; 8] = [
    "#a6cee3", "#fdbf6f", "#b2df8a", "#fb9a99", "#cab2d6", "#ffff99", "#d9d9d9", "#8dd3c7",
];

/// The fill attributes of a subtask on `worker` (none when no worker is assigned).
fn fill(worker: Option<u32>) -> String {
    worker.map_or_else(String::new, |worker| {
        let colour = WORKER_COLOURS[worker as usize % WORKER_COLOURS.len()];
        format!(", style=filled, fillcolor=\"{colour}\"")
    })
}

fn label(graph: &SubtaskGraph, chunks: &ChunkGraph, id: SubtaskId) -> String {
    let ops: Vec<String> = graph
        .ops(id)
        .iter()
        .map(|&chunk| format!("{chunk} {}", chunks.step_of(chunk).op.name()))
        .collect();
    let worker = graph
        .subtask(id)
        .worker
        .map_or_else(|| "-".to_string(), |w| w.to_string());
    format!(
        "{id}\\n{}\\npriority {} worker {worker}",
        ops.join("\\n"),
        graph.subtask(id).priority
    )
}
