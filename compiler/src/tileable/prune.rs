//! Dead-node removal after lowering: keeps only the nodes some output (a print or a
//! save) needs, renumbered densely in their original creation order, which is a
//! topological order. Lowering creates nodes for every expression it evaluates
//! (including `x.shape` lookups and discarded expression statements), so this is
//! what makes dumps minimal and independent of such incidental work.

use super::{Output, PrintItem, TileableGraph, TileableId};
use crate::ops::Creation;
use std::collections::{HashMap, HashSet};

/// Returns a graph with only the nodes reachable backwards from the outputs.
pub fn prune(graph: &TileableGraph) -> TileableGraph {
    prune_cut(graph, |_| None)
}

/// [`prune`], with the nodes `cut` gives a key for replaced by leaves
/// (`Creation::Cached` with that key): what only they needed is dropped. A session
/// cuts the tensors whose chunks it has cached (staged execution).
pub fn prune_cut(graph: &TileableGraph, cut: impl Fn(TileableId) -> Option<u64>) -> TileableGraph {
    let live = reached_nodes(graph, |id| cut(id).is_some());
    prune_to(graph, &live, cut)
}

/// [`prune_cut`] to the nodes `live`, which must be what [`reached_nodes`] gives for
/// the graph's outputs and the same cut (a caller that has them already).
pub fn prune_to(
    graph: &TileableGraph,
    live: &[TileableId],
    cut: impl Fn(TileableId) -> Option<u64>,
) -> TileableGraph {
    let mut renumbered: HashMap<TileableId, TileableId> = HashMap::with_capacity(live.len());
    let mut pruned = TileableGraph::new();
    for &id in live {
        let mut node = graph.node(id).clone();
        if let Some(key) = cut(id) {
            node.op = super::TileOp::Create(Creation::Cached { key });
            node.inputs.clear();
        }
        for input in &mut node.inputs {
            *input = renumbered[input];
        }
        renumbered.insert(id, pruned.add(node));
    }
    let map = |id: TileableId| renumbered[&id];
    pruned.outputs = graph
        .outputs
        .iter()
        .map(|output| match output {
            Output::Print {
                items,
                sep,
                end,
                span,
            } => Output::Print {
                items: items
                    .iter()
                    .map(|item| match item {
                        PrintItem::Text(text) => PrintItem::Text(text.clone()),
                        PrintItem::Tensor(id) => PrintItem::Tensor(map(*id)),
                    })
                    .collect(),
                sep: sep.clone(),
                end: end.clone(),
                span: *span,
            },
            Output::Save {
                path,
                tensor,
                span,
                format,
            } => Output::Save {
                path: path.clone(),
                tensor: map(*tensor),
                span: *span,
                format: format.clone(),
            },
        })
        .collect();
    pruned.files = graph.files.clone();
    pruned
}

/// The nodes the outputs need, in increasing id order (a topological order): found
/// by walking back from the outputs, not into the inputs of the nodes `cut` names.
/// Only the nodes reached are visited, so in a session whose history is cached a
/// stage costs what its new nodes do, not what the whole session holds.
pub fn reached_nodes(graph: &TileableGraph, cut: impl Fn(TileableId) -> bool) -> Vec<TileableId> {
    let mut roots = Vec::new();
    for output in &graph.outputs {
        match output {
            Output::Print { items, .. } => {
                roots.extend(items.iter().filter_map(|item| match item {
                    PrintItem::Tensor(id) => Some(*id),
                    PrintItem::Text(_) => None,
                }))
            }
            Output::Save { tensor, .. } => roots.push(*tensor),
        }
    }
    reached_from(graph, roots, cut)
}

/// [`reached_nodes`] from the nodes `roots` instead of the outputs.
pub fn reached_from(
    graph: &TileableGraph,
    roots: impl IntoIterator<Item = TileableId>,
    cut: impl Fn(TileableId) -> bool,
) -> Vec<TileableId> {
    let mut seen: HashSet<TileableId> = HashSet::new();
    let mut stack: Vec<TileableId> = Vec::new();
    for root in roots {
        if root.index() < graph.len() && seen.insert(root) {
            stack.push(root);
        }
    }
    while let Some(id) = stack.pop() {
        if cut(id) {
            continue;
        }
        for input in &graph.node(id).inputs {
            if seen.insert(*input) {
                stack.push(*input);
            }
        }
    }
    let mut live: Vec<TileableId> = seen.into_iter().collect();
    live.sort_unstable();
    live
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ElementwiseOp;
    use crate::tileable::{TileOp, TileableNode};
    use marsc_grammar::Span;
    use marsc_runtime::ops::UnaryOp;
    use marsc_runtime::{DType, Scalar};

    fn leaf(value: f64) -> TileableNode {
        TileableNode {
            op: TileOp::Create(Creation::Full(Scalar::Float64(value))),
            inputs: vec![],
            shape: vec![],
            dtype: DType::Float64,
            nsplits: vec![],
            span: Span::default(),
        }
    }

    fn negate(input: TileableId) -> TileableNode {
        TileableNode {
            op: TileOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Negative)),
            inputs: vec![input],
            ..leaf(0.0)
        }
    }

    #[test]
    fn removes_unused_nodes_and_renumbers() {
        let mut graph = TileableGraph::new();
        let unused = graph.add(leaf(1.0));
        let used = graph.add(leaf(2.0));
        graph.add(negate(unused));
        let result = graph.add(negate(used));
        graph.outputs.push(Output::Save {
            path: "x.npy".into(),
            tensor: result,
            span: Span::default(),
            format: Default::default(),
        });
        graph.outputs.push(Output::Print {
            items: vec![PrintItem::Text("a".into()), PrintItem::Tensor(used)],
            sep: " ".into(),
            end: "\n".into(),
            span: Span::default(),
        });
        let pruned = prune(&graph);
        assert_eq!(pruned.len(), 2);
        assert_eq!(
            pruned.node(TileableId(0)).op,
            TileOp::Create(Creation::Full(Scalar::Float64(2.0)))
        );
        assert_eq!(pruned.node(TileableId(1)).inputs, vec![TileableId(0)]);
        assert!(matches!(
            pruned.outputs[0],
            Output::Save {
                tensor: TileableId(1),
                ..
            }
        ));
        assert!(matches!(
            &pruned.outputs[1],
            Output::Print { items, .. } if items[1] == PrintItem::Tensor(TileableId(0))
        ));
    }

    #[test]
    fn no_outputs_means_empty_graph() {
        let mut graph = TileableGraph::new();
        graph.add(leaf(1.0));
        assert!(prune(&graph).is_empty());
    }
}
