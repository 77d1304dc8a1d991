//! Fusion: ChunkGraph → SubtaskGraph. Groups chunk operations into subtasks so that a
//! value used only inside one group never leaves the worker computing it.
//!
//! A fused group is a small DAG with one sink, its *root* (the chunk whose value
//! leaves the subtask), and the producers absorbed into it: chunks all of whose
//! consumer chunks are in the group, so no chunk is ever computed twice, and a chunk
//! read by several groups is published once by its own. The conditions on the
//! operations are in [`rules`]. The seed's chain fusion is the special case where
//! the consumer reads nothing else ([`Fusion::Chain`]); the default goes on as Dask's
//! blockwise fusion does ([`Fusion::Blockwise`]): element-wise trees with several
//! inputs, creation ops and a reduction's per-chunk map become one subtask.
//!
//! The pass is linear in chunks plus edges and allocates two tables, of chunk ids
//! (reused as the chunk-to-subtask table) and of group sizes (a group holds at most
//! [`MAX_GROUP_OPS`] operations), besides the SubtaskGraph itself.

mod groups;
pub mod rules;

pub use groups::{fused_roots, MAX_GROUP_OPS, NOT_RUN};

use crate::chunk::{ChunkGraph, ChunkId};
use crate::subtask::{form, SubtaskGraph};

/// How much the pass fuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fusion {
    /// Every chunk operation is its own subtask (`--no-fuse`).
    Off,
    /// The seed's chain fusion: a producer joins its consumer only when that consumer
    /// reads nothing else (the baseline, for comparison).
    Chain,
    /// Chain fusion plus blockwise fusion of multi-input consumers (the default).
    #[default]
    Blockwise,
}

/// The subtasks the outputs need, fused by default.
pub fn form_subtasks(chunks: &ChunkGraph) -> SubtaskGraph {
    fuse(chunks, Fusion::default())
}

/// Forms the subtasks the outputs need, fused as `fusion` says.
pub fn fuse(chunks: &ChunkGraph, fusion: Fusion) -> SubtaskGraph {
    let results = form::result_chunks(chunks, &chunks.outputs);
    let needed = form::needed_chunks(chunks, &chunks.outputs, &results);
    fuse_needed(chunks, &needed, results, fusion)
}

/// Forms the subtasks that compute the chunks marked in `needed`, fused as `fusion`
/// says, with `results` (all needed) handed back. For a caller that already has the
/// values of some chunks (the REPL's cache): it leaves them out of `needed`, and the
/// subtasks reading them take them as inputs no subtask produces.
pub fn fuse_needed(
    chunks: &ChunkGraph,
    needed: &[bool],
    results: Vec<ChunkId>,
    fusion: Fusion,
) -> SubtaskGraph {
    let roots = fused_roots(chunks, needed, &results, fusion);
    form::from_roots(chunks, roots, results)
}

#[cfg(test)]
mod tests;
