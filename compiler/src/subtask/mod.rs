//! The SubtaskGraph IR: the chunk operations the run needs, grouped into subtasks — a
//! subtask is a small DAG of chunk operations one worker runs together, publishing
//! only the values other subtasks (or the caller) need. Until fusion (issue 5) every
//! operation is its own subtask, but nothing here assumes it.
//!
//! Records stay flat (MEP 0002): a subtask is a window into one shared list of its
//! chunks (its ops, in topological order), and per-chunk facts (which subtask runs
//! it, whether its value is published) are side tables indexed by chunk id. A
//! subtask's inputs and outputs are derived from the ChunkGraph on demand.
//!
//! Only chunks that an output needs are run: a chunk no print or save reaches belongs
//! to no subtask.

pub mod display;
pub mod dot;
pub mod form;
pub mod placement;
pub mod schedule;
pub mod verify;

pub use placement::{assign_workers, Placement};
pub use schedule::{schedule_subtasks, AssignPolicy, OrderPolicy};
pub use verify::verify;

use crate::chunk::{ChunkGraph, ChunkId};

/// Identifies a subtask; ids are dense and in topological order. The runtime's
/// plan keeps the graph's order, so the compiler uses the runtime's type.
pub use marsc_runtime::plan::SubtaskId;

/// One subtask: its ops are `ops[ops_start..ops_start + ops_len]` of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subtask {
    pub ops_start: u32,
    pub ops_len: u32,
    /// Among ready subtasks, smaller runs first.
    pub priority: i64,
    /// The worker chosen by an assignment pass; `None` lets the executor choose.
    pub worker: Option<u32>,
}

/// Marks a chunk that no subtask runs.
const NOT_RUN: u32 = u32::MAX;

/// The program as subtasks over the chunks of a [`ChunkGraph`].
#[derive(Clone, Debug, Default)]
pub struct SubtaskGraph {
    subtasks: Vec<Subtask>,
    /// Every subtask's chunks, each subtask's contiguous and in topological order.
    ops: Vec<ChunkId>,
    /// The subtask running each chunk (indexed by chunk id), or [`NOT_RUN`].
    subtask_of: Vec<u32>,
    /// Whether each chunk's value leaves its subtask (another subtask or the caller
    /// reads it).
    published: Vec<bool>,
    /// Chunks handed back to the caller (the printed tensors'), in program order.
    results: Vec<ChunkId>,
}

impl SubtaskGraph {
    pub fn len(&self) -> usize {
        self.subtasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.subtasks.is_empty()
    }

    pub fn ids(&self) -> impl ExactSizeIterator<Item = SubtaskId> {
        (0..self.subtasks.len() as u32).map(SubtaskId)
    }

    pub fn subtask(&self, id: SubtaskId) -> &Subtask {
        &self.subtasks[id.index()]
    }

    pub fn subtask_mut(&mut self, id: SubtaskId) -> &mut Subtask {
        &mut self.subtasks[id.index()]
    }

    /// The chunks a subtask computes, in the order it runs them.
    pub fn ops(&self, id: SubtaskId) -> &[ChunkId] {
        let subtask = &self.subtasks[id.index()];
        let start = subtask.ops_start as usize;
        &self.ops[start..start + subtask.ops_len as usize]
    }

    /// The subtask that runs `chunk`, if any does.
    pub fn subtask_of(&self, chunk: ChunkId) -> Option<SubtaskId> {
        match self.subtask_of.get(chunk.index()) {
            Some(&NOT_RUN) | None => None,
            Some(&id) => Some(SubtaskId(id)),
        }
    }

    /// Whether `chunk`'s value leaves the subtask that computes it.
    pub fn is_published(&self, chunk: ChunkId) -> bool {
        self.published.get(chunk.index()).copied().unwrap_or(false)
    }

    /// The chunks handed back to the caller, in program order, each once.
    pub fn results(&self) -> &[ChunkId] {
        &self.results
    }

    /// The number of chunks the run computes.
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }

    /// The chunks a subtask reads from other subtasks, each once, in first-use order.
    pub fn inputs(&self, chunks: &ChunkGraph, id: SubtaskId) -> Vec<ChunkId> {
        let mut inputs = Vec::new();
        self.inputs_into(chunks, id, &mut inputs);
        inputs
    }

    /// [`SubtaskGraph::inputs`] written into `inputs` (cleared first), so a pass over
    /// every subtask reuses one buffer.
    pub fn inputs_into(&self, chunks: &ChunkGraph, id: SubtaskId, inputs: &mut Vec<ChunkId>) {
        inputs.clear();
        // A save's commit reads every region, so dedupe with a set past a few inputs.
        let mut seen = std::collections::HashSet::new();
        for &op in self.ops(id) {
            for &input in chunks.inputs(op) {
                if self.subtask_of(input) == Some(id) {
                    continue;
                }
                let new = if inputs.len() < 16 {
                    !inputs.contains(&input)
                } else {
                    if seen.is_empty() {
                        seen.extend(inputs.iter().copied());
                    }
                    seen.insert(input)
                };
                if new {
                    inputs.push(input);
                }
            }
        }
    }

    /// The chunks of a subtask whose values it publishes.
    pub fn outputs(&self, id: SubtaskId) -> impl Iterator<Item = ChunkId> + '_ {
        self.ops(id)
            .iter()
            .copied()
            .filter(|&chunk| self.is_published(chunk))
    }
}

#[cfg(test)]
mod tests;
