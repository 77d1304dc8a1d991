//! The JIT's kernel IR: one fused group of element-wise operations over leaves
//! (subtask inputs and creation ops), with an optional reduction tail, in the form the
//! code generator lowers. A [`JitGraph`] holds only structure (ops, dtypes, wiring), so
//! it is the kernel cache's key: the values that differ between steps or chunks (a
//! `full` value, a random seed, a chunk's offset) travel at run time in [`LeafValue`]s.

use crate::dtype::DType;
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};

/// One node of a fused group, in topological order (arguments come first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub kind: NodeKind,
    /// The dtype of the node's value.
    pub dtype: DType,
    /// Earlier nodes this one reads.
    pub args: Vec<u32>,
}

/// What a node computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// Leaf `index` of the kernel (see [`LeafKind`]).
    Leaf(u32, LeafKind),
    Unary(UnaryOp),
    /// Both arguments are cast to `op.loop_dtype(common)` first.
    Binary {
        op: BinaryOp,
        common: DType,
    },
    /// `[cond, x, y]`.
    Where,
    Cast,
}

/// Where a leaf's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeafKind {
    /// A chunk passed as an argument, read through (broadcast) strides.
    Buffer,
    /// One value everywhere, loaded once per call.
    Constant,
    /// A function of the element's global flat index, computed by a Rust callback
    /// (arange, linspace, literal, random), so it is bit-identical to the interpreter.
    Indexed,
}

/// The structure of a kernel: the cache key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JitGraph {
    pub nodes: Vec<Node>,
    /// The node whose value the kernel produces (or reduces).
    pub root: u32,
    /// Reduce the root with this op instead of storing it.
    pub reduce: Option<ReduceOp>,
}

impl JitGraph {
    pub fn leaf_count(&self) -> usize {
        self.nodes
            .iter()
            .filter(|node| matches!(node.kind, NodeKind::Leaf(..)))
            .count()
    }

    pub fn root_dtype(&self) -> DType {
        self.nodes[self.root as usize].dtype
    }

    /// The leaves' dtypes, in leaf order.
    pub fn leaf_dtypes(&self) -> Vec<DType> {
        self.leaves().into_iter().map(|(_, dtype)| dtype).collect()
    }

    /// The leaves in index order with their kinds and dtypes.
    pub fn leaves(&self) -> Vec<(LeafKind, DType)> {
        let mut leaves: Vec<(u32, LeafKind, DType)> = self
            .nodes
            .iter()
            .filter_map(|node| match node.kind {
                NodeKind::Leaf(index, kind) => Some((index, kind, node.dtype)),
                _ => None,
            })
            .collect();
        leaves.sort_by_key(|leaf| leaf.0);
        leaves
            .into_iter()
            .map(|(_, kind, dtype)| (kind, dtype))
            .collect()
    }
}

/// Arguments slots per leaf in the `args` array a compiled function reads: a pointer
/// or base index, then a grouped kernel's row stride in bytes (see `Variant::rows`;
/// 0 otherwise), then an indexed leaf's source.
pub const SLOTS_PER_LEAF: usize = 3;
