//! The TileableGraph IR: one node per tensor operation, with its shape, dtype and
//! chunk splits all known at compile time, plus the script's outputs (prints and
//! saves) in program order.

pub mod display;
pub mod dot;
pub mod nsplits;
pub mod op;
pub mod prune;
pub mod verify;

/// The items of a normalized index, as `TileOp::Index` holds them (the indexing
/// rules of `infer::index` make them).
pub use crate::infer::index::IndexItem;
pub use op::TileOp;

use marsc_grammar::Span;
use marsc_runtime::storage::SaveFormat;
use marsc_runtime::DType;
use petgraph::graph::{DiGraph, NodeIndex};
use std::path::PathBuf;

/// Identifies a node of a [`TileableGraph`]. Ids are handed out in creation order,
/// which is a topological order (a node's inputs always exist before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileableId(pub u32);

impl TileableId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One tensor: the operation that produces it and everything known about it.
#[derive(Clone, Debug, PartialEq)]
pub struct TileableNode {
    pub op: TileOp,
    /// Operands, in the order the op documents.
    pub inputs: Vec<TileableId>,
    pub shape: Vec<usize>,
    pub dtype: DType,
    /// Chunk sizes along each axis; each axis's sizes sum to its length. An axis of
    /// length 0 has the single split `[0]`.
    pub nsplits: Vec<Vec<usize>>,
    /// The source expression that created the tensor.
    pub span: Span,
}

/// Something the script asks to see or keep, in program order.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// `print(items..., sep=, end=)`.
    Print {
        items: Vec<PrintItem>,
        sep: String,
        end: String,
        span: Span,
    },
    /// `save(path, tensor)`, `tozarr(path, tensor, ...)`.
    Save {
        path: PathBuf,
        tensor: TileableId,
        span: Span,
        /// The file's format and its options.
        format: SaveFormat,
    },
}

impl Output {
    /// The statement's source span.
    pub fn span(&self) -> Span {
        match self {
            Output::Print { span, .. } | Output::Save { span, .. } => *span,
        }
    }
}

/// One argument of `print`.
#[derive(Clone, Debug, PartialEq)]
pub enum PrintItem {
    /// A compile-time value, already formatted as Python's `str()` would.
    Text(String),
    /// A tensor, printed as NumPy's `str()` (a 0-d tensor prints as a NumPy scalar).
    Tensor(TileableId),
}

/// The whole program at tensor level.
#[derive(Clone, Debug, Default)]
pub struct TileableGraph {
    graph: DiGraph<TileableNode, u32>,
    pub outputs: Vec<Output>,
    /// Every file the script loads or saves, as it will be opened (pruned loads
    /// too): the CLI refuses to write `--stats-json`/`--trace` over one of them.
    pub files: Vec<PathBuf>,
}

impl TileableGraph {
    pub fn new() -> TileableGraph {
        TileableGraph::default()
    }

    /// Adds a node; its inputs must already be in the graph.
    pub fn add(&mut self, node: TileableNode) -> TileableId {
        let inputs = node.inputs.clone();
        let index = self.graph.add_node(node);
        for (position, input) in inputs.iter().enumerate() {
            debug_assert!(input.index() < index.index(), "inputs must exist first");
            self.graph
                .add_edge(NodeIndex::new(input.index()), index, position as u32);
        }
        TileableId(index.index() as u32)
    }

    pub fn node(&self, id: TileableId) -> &TileableNode {
        &self.graph[NodeIndex::new(id.index())]
    }

    pub fn len(&self) -> usize {
        self.graph.node_count()
    }

    pub fn is_empty(&self) -> bool {
        self.graph.node_count() == 0
    }

    /// All ids in creation (topological) order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = TileableId> + '_ {
        (0..self.graph.node_count() as u32).map(TileableId)
    }

    /// Nodes that use `id` as an input, in id order (a node using it twice appears once).
    pub fn consumers(&self, id: TileableId) -> Vec<TileableId> {
        let mut users: Vec<TileableId> = self
            .graph
            .neighbors_directed(NodeIndex::new(id.index()), petgraph::Direction::Outgoing)
            .map(|n| TileableId(n.index() as u32))
            .collect();
        users.sort();
        users.dedup();
        users
    }

    /// Removes the nodes from `len` on, newest first, with their edges: the REPL
    /// undoes an input that failed to lower this way.
    pub fn truncate(&mut self, len: usize) {
        while self.graph.node_count() > len {
            let newest = NodeIndex::new(self.graph.node_count() - 1);
            self.graph.remove_node(newest);
        }
    }

    /// The underlying petgraph graph, for algorithms (edge weight: input position).
    pub fn petgraph(&self) -> &DiGraph<TileableNode, u32> {
        &self.graph
    }
}
