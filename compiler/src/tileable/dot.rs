//! The `--emit tileable --format dot` picture: a Graphviz digraph with one box per
//! node (op, dtype, shape, chunks) and one sink per output, edges labelled with the
//! input position when an op has several inputs.

use super::display::{nsplits_text, op_name, shape_text};
use super::{Output, PrintItem, TileableGraph};
use std::fmt::Write;

/// Renders the graph in Graphviz `dot` syntax.
pub fn to_dot(graph: &TileableGraph) -> String {
    let mut dot = String::from(
        "digraph tileable {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    for id in graph.ids() {
        let node = graph.node(id);
        let label = format!(
            "{id} {}\n{} {}\nchunks {}",
            op_name(&node.op),
            node.dtype,
            shape_text(&node.shape),
            nsplits_text(&node.nsplits)
        );
        let _ = writeln!(dot, "  n{} [label=\"{}\"];", id.0, escape(&label));
        let many_inputs = node.inputs.len() > 1;
        for (position, input) in node.inputs.iter().enumerate() {
            let _ = write!(dot, "  n{} -> n{}", input.0, id.0);
            if many_inputs {
                let _ = write!(dot, " [label=\"{position}\"]");
            }
            dot.push_str(";\n");
        }
    }
    for (index, output) in graph.outputs.iter().enumerate() {
        let (label, tensors) = match output {
            Output::Print { items, .. } => (
                "print".to_string(),
                items
                    .iter()
                    .filter_map(|item| match item {
                        PrintItem::Tensor(id) => Some(*id),
                        PrintItem::Text(_) => None,
                    })
                    .collect(),
            ),
            Output::Save { path, tensor, .. } => {
                (format!("save {}", path.display()), vec![*tensor])
            }
        };
        let _ = writeln!(
            dot,
            "  out{index} [label=\"{}\", shape=ellipse, style=filled, fillcolor=lightgrey];",
            escape(&label)
        );
        for tensor in tensors {
            let _ = writeln!(dot, "  n{} -> out{index};", tensor.0);
        }
    }
    dot.push_str("}\n");
    dot
}

/// Escapes a label for a double-quoted dot string; line breaks become dot's `\n`.
fn escape(label: &str) -> String {
    label
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Creation;
    use crate::tileable::{TileOp, TileableNode};
    use marsc_grammar::Span;
    use marsc_runtime::{DType, Scalar};

    #[test]
    fn boxes_edges_and_sinks() {
        let mut graph = TileableGraph::new();
        let a = graph.add(TileableNode {
            op: TileOp::Create(Creation::Full(Scalar::Float64(1.0))),
            inputs: vec![],
            shape: vec![4],
            dtype: DType::Float64,
            nsplits: vec![vec![2, 2]],
            span: Span::default(),
        });
        graph.outputs.push(Output::Save {
            path: "a \"b\".npy".into(),
            tensor: a,
            span: Span::default(),
            format: Default::default(),
        });
        let dot = to_dot(&graph);
        assert!(dot.starts_with("digraph tileable {"));
        assert!(dot.contains("n0 [label=\"%0 full\\nfloat64 (4,)\\nchunks (2x2,)\"];"));
        assert!(dot.contains("out0 [label=\"save a \\\"b\\\".npy\""));
        assert!(dot.contains("n0 -> out0;"));
        assert!(dot.ends_with("}\n"));
    }
}
