//! How big the chunk graph of a lowered program will be, estimated from the
//! TileableGraph before tiling builds it: each node's chunk operations and the edges
//! between them, op by op, as the tiler will make them (a matmul's block products, a
//! reduction's tree, the rechunks that unify operands). A program past
//! [`MAX_GRAPH_CHUNKS`] operations or [`MAX_GRAPH_EDGES`] edges is refused here, with
//! a span on the node that needs the most, so `marsc check` reports it in a moment
//! rather than the tiler growing past the machine's memory.
//!
//! The estimates are upper bounds of the tiler's counts, within a small factor; the
//! caps are fixed (not the machine's memory) so that whether a script compiles does
//! not depend on the machine. Planning and running hold about 200 bytes per chunk
//! operation (chunk record, subtask, plan, executor state: `bench/chunks_scale.py`),
//! so a graph at the caps needs about 7 GiB.

use crate::tile::{chunk_count, TileOptions};
use crate::tileable::{Output, PrintItem, TileOp, TileableGraph, TileableId, TileableNode};
use marsc_grammar::Diagnostic;

/// The most chunk operations a program's chunk graph may have.
pub const MAX_GRAPH_CHUNKS: u128 = 1 << 25;
/// The most edges (chunk inputs) a program's chunk graph may have.
pub const MAX_GRAPH_EDGES: u128 = 1 << 28;

/// The estimated chunk operations and edges of one node (or output).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cost {
    chunks: u128,
    edges: u128,
}

impl Cost {
    fn add(self, other: Cost) -> Cost {
        Cost {
            chunks: self.chunks.saturating_add(other.chunks),
            edges: self.edges.saturating_add(other.edges),
        }
    }

    /// How far past the caps, as one number to find the node that needs the most.
    fn weight(self) -> u128 {
        (self
            .chunks
            .saturating_mul(MAX_GRAPH_EDGES / MAX_GRAPH_CHUNKS))
        .max(self.edges)
    }
}

/// Refuses a graph whose chunk graph would not fit the caps.
pub fn check_graph_size(graph: &TileableGraph) -> Result<(), Diagnostic> {
    let combine = TileOptions::default().combine_size.max(2) as u128;
    let mut total = Cost::default();
    let mut largest: Option<(Cost, TileableId)> = None;
    for id in graph.ids() {
        let cost = node_cost(graph, graph.node(id), combine);
        total = total.add(cost);
        if largest.is_none_or(|(most, _)| cost.weight() > most.weight()) {
            largest = Some((cost, id));
        }
    }
    for output in &graph.outputs {
        total = total.add(output_cost(graph, output));
    }
    if total.chunks <= MAX_GRAPH_CHUNKS && total.edges <= MAX_GRAPH_EDGES {
        return Ok(());
    }
    let Some((most, id)) = largest else {
        return Ok(());
    };
    let node = graph.node(id);
    let diagnostic = Diagnostic::error(
        format!(
            "this program needs about {} chunk operations and {} edges between them, more than marsc can plan (at most {MAX_GRAPH_CHUNKS} operations and {MAX_GRAPH_EDGES} edges)",
            total.chunks, total.edges
        ),
        node.span,
    )
    .with_label(format!(
        "{} needs about {} operations and {} edges",
        what_it_is(graph, node),
        most.chunks,
        most.edges
    ))
    .with_help(
        "use bigger chunks (`chunks=` where the tensors are created, or a larger `--chunk-bytes`): \
         the number of chunk operations falls with the number of chunks",
    );
    Err(diagnostic)
}

/// A few words on the node's chunks, for the label.
fn what_it_is(graph: &TileableGraph, node: &TileableNode) -> String {
    let blocks = |id: TileableId, axis: usize| {
        graph
            .node(id)
            .nsplits
            .get(axis)
            .map_or(1, |splits| splits.len())
    };
    match node.op {
        TileOp::MatMul if node.inputs.len() == 2 => format!(
            "this product of {} × {} blocks by {} × {} blocks",
            blocks(node.inputs[0], 0),
            blocks(node.inputs[0], 1),
            blocks(node.inputs[1], 0),
            blocks(node.inputs[1], 1)
        ),
        TileOp::Reduce(ref op) => format!(
            "this {} of {} chunks",
            op.kind(),
            node.inputs
                .first()
                .map_or(0, |&input| chunk_count(&graph.node(input).nsplits))
        ),
        _ => format!("this tensor of {} chunks", chunk_count(&node.nsplits)),
    }
}

/// The node's own chunk operations and edges, plus those of the rechunks that bring
/// its operands to its chunking.
fn node_cost(graph: &TileableGraph, node: &TileableNode, combine: u128) -> Cost {
    let out = chunk_count(&node.nsplits);
    let input_chunks = |position: usize| {
        node.inputs
            .get(position)
            .map_or(0, |&id| chunk_count(&graph.node(id).nsplits))
    };
    match &node.op {
        TileOp::Create(_) => Cost {
            chunks: out,
            edges: 0,
        },
        // Each operand rechunked to the node's chunks first.
        TileOp::Elementwise(op) => {
            let unify = node
                .inputs
                .iter()
                .map(|&id| unify_cost(&graph.node(id).nsplits, &node.nsplits))
                .fold(Cost::default(), Cost::add);
            let (chunks, edges) = op.graph_cost(out, node.inputs.len());
            Cost { chunks, edges }.add(unify)
        }
        TileOp::Reduce(op) => {
            let (chunks, edges) = op.graph_cost(input_chunks(0), out, combine);
            Cost { chunks, edges }
        }
        TileOp::MatMul => matmul_cost(graph, node, combine),
        // One chunk per index chunk and x chunk off the axis, reading the blocks it names.
        // Per chunk of x: x's chunk and a pair of chunks per index chunk it reads.
        TileOp::Scatter { touched, .. } => {
            let reads: u128 = touched.iter().map(|t| 2 * t.len() as u128 + 1).sum();
            let per_block = out / (touched.len().max(1) as u128);
            Cost {
                chunks: out,
                edges: reads.saturating_mul(per_block.max(1)),
            }
        }
        TileOp::Gather { touched, .. } => {
            let reads: u128 = touched.iter().map(|t| t.len() as u128 + 1).sum();
            let per_row = out / (touched.len().max(1) as u128);
            Cost {
                chunks: out,
                edges: reads.saturating_mul(per_row.max(1)),
            }
        }
        // One chunk per selecting block, reading its blocks of x and of the mask.
        TileOp::Compress { .. } => Cost {
            chunks: out,
            edges: out.saturating_mul(2),
        },
        TileOp::Sort(op) => {
            let (chunks, edges) = op.graph_cost(out);
            Cost { chunks, edges }
        }
        // Gathers (rechunks) into one chunk or TSQR's row blocks: a local QR, one
        // stacked QR and a product per block.
        TileOp::Linalg(_) => {
            let inputs = (0..node.inputs.len()).map(input_chunks).sum::<u128>();
            Cost {
                chunks: out.saturating_mul(3).saturating_add(inputs),
                edges: out
                    .saturating_mul(4)
                    .saturating_add(inputs.saturating_mul(2)),
            }
        }
        TileOp::Rechunk => match node.inputs.first() {
            Some(&input) => unify_cost(&graph.node(input).nsplits, &node.nsplits),
            None => Cost::default(),
        },
        TileOp::Shape(op) => {
            let (chunks, edges) = op.graph_cost(out, input_chunks(0));
            let cost = Cost { chunks, edges };
            match (op.aligns_input(), node.inputs.first()) {
                (true, Some(&input)) => {
                    cost.add(unify_cost(&graph.node(input).nsplits, &node.nsplits))
                }
                _ => cost,
            }
        }
        TileOp::Index { .. }
        | TileOp::Concatenate { .. }
        | TileOp::BlockCounts
        | TileOp::IndexBlocks { .. }
        | TileOp::BinCounts(_) => Cost {
            chunks: out,
            edges: out.saturating_add(input_chunks(0)),
        },
    }
}

/// A rechunk from `from` to `to` (aligned at the last axis, as broadcasting does),
/// or nothing when every axis already agrees or broadcasts: one piece per cell of
/// the common refinement, at most `a + b - 1` along an axis of `a` and `b` chunks.
fn unify_cost(from: &[Vec<usize>], to: &[Vec<usize>]) -> Cost {
    if from.len() > to.len() {
        return Cost::default();
    }
    let leading = to.len() - from.len();
    let mut pieces = 1u128;
    let mut differs = false;
    for (axis, target) in to.iter().enumerate() {
        let Some(source) = axis.checked_sub(leading).and_then(|a| from.get(a)) else {
            continue;
        };
        let (a, b) = (source.len() as u128, target.len() as u128);
        if source == target || a == 1 && source.iter().sum::<usize>() <= 1 {
            pieces = pieces.saturating_mul(b);
        } else {
            differs = true;
            pieces = pieces.saturating_mul(a.saturating_add(b).saturating_sub(1).max(1));
        }
    }
    if !differs {
        return Cost::default();
    }
    Cost {
        chunks: pieces,
        edges: pieces.saturating_mul(2),
    }
}

/// `(n, k) @ (k, m)`: one kernel per output block and run of `combine` contracted
/// blocks, reading two blocks per product, then a tree summing the runs. Operands
/// chunked differently along `k` are unified first (at most the sum of both counts).
fn matmul_cost(graph: &TileableGraph, node: &TileableNode, combine: u128) -> Cost {
    let [a, b] = node.inputs.as_slice() else {
        return Cost::default();
    };
    let (a, b) = (graph.node(*a), graph.node(*b));
    let axis_blocks = |n: &TileableNode, axis: usize| {
        n.nsplits.get(axis).map_or(1, |splits| splits.len() as u128)
    };
    let rows = axis_blocks(a, 0);
    let columns = axis_blocks(b, 1);
    let (ka, kb) = (axis_blocks(a, 1), axis_blocks(b, 0));
    let inner = if a.nsplits.get(1) == b.nsplits.first() {
        ka
    } else {
        ka.saturating_add(kb)
    };
    let blocks = rows.saturating_mul(columns);
    let runs = blocks.saturating_mul(inner.div_ceil(combine));
    Cost {
        chunks: runs
            .saturating_add(runs / (combine - 1))
            .saturating_add(blocks),
        edges: blocks
            .saturating_mul(inner)
            .saturating_mul(2)
            .saturating_add(runs.saturating_mul(2)),
    }
}

/// A printed tensor is assembled from its chunks; a save is a region per chunk, an
/// init and a commit.
fn output_cost(graph: &TileableGraph, output: &Output) -> Cost {
    match output {
        Output::Print { items, .. } => items
            .iter()
            .filter_map(|item| match item {
                PrintItem::Tensor(id) => Some(chunk_count(&graph.node(*id).nsplits)),
                PrintItem::Text(_) => None,
            })
            .map(|chunks| Cost {
                chunks: 1,
                edges: chunks,
            })
            .fold(Cost::default(), Cost::add),
        Output::Save { tensor, .. } => {
            let chunks = chunk_count(&graph.node(*tensor).nsplits);
            Cost {
                chunks: chunks.saturating_add(2),
                edges: chunks.saturating_mul(3),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_chunked_alike_need_no_rechunk() {
        let splits = vec![vec![2, 2], vec![3]];
        assert_eq!(unify_cost(&splits, &splits), Cost::default());
        // A broadcast axis of length 1 takes the other's splits.
        assert_eq!(unify_cost(&[vec![1]], &splits), Cost::default());
        let other = vec![vec![1, 3], vec![3]];
        assert_eq!(
            unify_cost(&other, &splits),
            Cost {
                chunks: 3,
                edges: 6
            }
        );
    }
}
