//! Worker placement policies other than the scheduling pass (`schedule.rs`, the
//! default). [`Placement::Executor`] pins nothing: the executor places each subtask
//! when it becomes ready (on the worker holding most of its input bytes, else the
//! least loaded). [`Placement::ChunkIndex`] pins each subtask to the worker numbered
//! by its last chunk's index within its step (taken modulo the worker count by the
//! executor): a static, predictable placement, so tests can work out the transfers of
//! a run by hand.

use super::SubtaskGraph;
use crate::chunk::ChunkGraph;

/// How subtasks are placed on workers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// The scheduling pass assigns workers before the run (`--assign`).
    #[default]
    Scheduled,
    /// The executor chooses at run time.
    Executor,
    /// Chunk `i` of every step runs on worker `i mod workers`.
    ChunkIndex,
}

/// Sets every subtask's worker according to `placement`; [`Placement::Scheduled`]
/// leaves the workers the scheduling pass chose.
pub fn assign_workers(graph: &mut SubtaskGraph, chunks: &ChunkGraph, placement: Placement) {
    for id in graph.ids() {
        let worker = match placement {
            Placement::Scheduled => continue,
            Placement::Executor => None,
            Placement::ChunkIndex => graph.ops(id).last().map(|&chunk| chunks.chunk(chunk).index),
        };
        graph.subtask_mut(id).worker = worker;
    }
}
