//! The `--emit chunk --format dot` rendering: a Graphviz digraph. Small graphs show
//! every chunk, boxed in one cluster per step, with chunk-to-chunk edges; graphs with
//! more than [`CHUNK_LEVEL_LIMIT`] chunks show one node per step with step edges, so
//! the picture stays readable.

use super::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::tileable::display::{nsplits_text, shape_text};
use std::fmt::Write;

/// Above this many chunks the picture is drawn at step level.
pub const CHUNK_LEVEL_LIMIT: usize = 400;

/// The graph as Graphviz text.
pub fn to_dot(graph: &ChunkGraph) -> String {
    let mut out = String::from(
        "digraph chunks {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    if graph.num_chunks() <= CHUNK_LEVEL_LIMIT {
        chunk_level(graph, &mut out);
    } else {
        step_level(graph, &mut out);
    }
    outputs(graph, &mut out);
    out.push_str("}\n");
    out
}

fn step_label(graph: &ChunkGraph, id: StepId) -> String {
    let step = graph.step(id);
    format!(
        "{id} {}\\n{} {} chunks {}\\n{} chunks from {}",
        step.op.name(),
        step.dtype,
        shape_text(step.layout.shape()),
        nsplits_text(step.layout.nsplits()),
        step.num_chunks,
        step.tileable
    )
}

fn chunk_level(graph: &ChunkGraph, out: &mut String) {
    for id in graph.step_ids() {
        let step = graph.step(id);
        let _ = writeln!(out, "  subgraph cluster_{} {{", id.0);
        let _ = writeln!(out, "    label=\"{}\";", step_label(graph, id));
        for chunk in step.chunk_ids() {
            let position = step.layout.grid_position(graph.chunk(chunk).index as usize);
            let _ = writeln!(
                out,
                "    {chunk} [label=\"{chunk} {}\\n{}\"];",
                shape_text(&position),
                shape_text(&graph.chunk_shape(chunk))
            );
        }
        out.push_str("  }\n");
    }
    for chunk in graph.chunk_ids() {
        for input in graph.inputs(chunk) {
            let _ = writeln!(out, "  {input} -> {chunk};");
        }
    }
}

fn step_level(graph: &ChunkGraph, out: &mut String) {
    for id in graph.step_ids() {
        let _ = writeln!(out, "  {id} [label=\"{}\"];", step_label(graph, id));
    }
    for id in graph.step_ids() {
        for input in &graph.step(id).inputs {
            let _ = writeln!(out, "  {input} -> {id};");
        }
    }
}

/// Outputs are sink nodes, drawn from a step's (or its first chunk's) node.
fn outputs(graph: &ChunkGraph, out: &mut String) {
    let chunk_level = graph.num_chunks() <= CHUNK_LEVEL_LIMIT;
    let source = |step: StepId| {
        if chunk_level {
            graph
                .step(step)
                .chunk_ids()
                .map(|c| c.to_string())
                .collect()
        } else {
            vec![step.to_string()]
        }
    };
    for (number, output) in graph.outputs.iter().enumerate() {
        let (label, steps) = match output {
            ChunkOutput::Print { items, .. } => (
                "print".to_string(),
                items
                    .iter()
                    .filter_map(PrintItem::printed_step)
                    .collect::<Vec<_>>(),
            ),
            ChunkOutput::Save { path, commit } => (
                format!("save {}", path.display()).replace('"', "\\\""),
                vec![*commit],
            ),
        };
        let _ = writeln!(out, "  out{number} [shape=note, label=\"{label}\"];");
        for step in steps {
            for node in source(step) {
                let _ = writeln!(out, "  {node} -> out{number} [style=dashed];");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::{ChunkId, ChunkOp, Layout};
    use crate::ops::{Creation, ElementwiseOp};
    use crate::tileable::TileableId;
    use marsc_runtime::ops::UnaryOp;
    use marsc_runtime::{DType, Scalar};

    fn two_steps(chunks: usize) -> ChunkGraph {
        let mut graph = ChunkGraph::new();
        let layout = Layout::new(vec![vec![1; chunks]]);
        let full = ChunkOp::Create(Creation::Full(Scalar::Float64(1.0)));
        let x = graph
            .add_step(full, TileableId(0), DType::Float64, layout.clone(), vec![])
            .unwrap();
        for _ in 0..chunks {
            graph.push_chunk(&[]);
        }
        let negative = ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Negative));
        graph
            .add_step(negative, TileableId(1), DType::Float64, layout, vec![x])
            .unwrap();
        for i in 0..chunks {
            graph.push_chunk(&[ChunkId(i as u32)]);
        }
        graph
    }

    #[test]
    fn small_graphs_show_chunks_in_step_clusters() {
        let dot = to_dot(&two_steps(2));
        assert!(dot.contains("subgraph cluster_1 {"), "{dot}");
        assert!(dot.contains("  c1 -> c3;"), "{dot}");
    }

    #[test]
    fn large_graphs_show_steps() {
        let dot = to_dot(&two_steps(CHUNK_LEVEL_LIMIT));
        assert!(!dot.contains("cluster"), "{dot}");
        assert!(dot.contains("  s0 -> s1;"), "{dot}");
    }
}
