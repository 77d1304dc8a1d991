//! Checks the SubtaskGraph invariants the planner and the executor rely on:
//! - every op of a subtask is a chunk of the ChunkGraph, run by that subtask only;
//! - within a subtask, an op's inputs from the same subtask come before it;
//! - subtasks are in topological order: every chunk a subtask reads from another
//!   subtask is run by an earlier one, and is published;
//! - every result is run and published; every save's commit is run.

use super::{SubtaskGraph, SubtaskId};
use crate::chunk::{ChunkGraph, ChunkOutput};
use crate::error::Problems;

/// `Ok` or every broken invariant (the first of each subtask), naming the subtask
/// or the chunk.
pub fn verify(graph: &SubtaskGraph, chunks: &ChunkGraph) -> Result<(), Problems> {
    let mut problems = Problems::default();
    if graph.subtask_of.len() != chunks.num_chunks() || graph.published.len() != chunks.num_chunks()
    {
        problems.graph_wide("side tables do not match the chunk graph");
        return problems.into_result();
    }
    let mut seen = vec![false; chunks.num_chunks()];
    for id in graph.ids() {
        problems.check(id, verify_subtask(graph, chunks, id, &mut seen));
    }
    for &chunk in graph.results() {
        if graph.subtask_of(chunk).is_none() || !graph.is_published(chunk) {
            problems.graph_wide(format!("result {chunk} is not run and published"));
        }
    }
    for output in &chunks.outputs {
        if let ChunkOutput::Save { commit, .. } = output {
            let chunk = chunks.step(*commit).first_chunk;
            if graph.subtask_of(chunk).is_none() {
                problems.graph_wide(format!("the commit {chunk} of a save is not run"));
            }
        }
    }
    problems.into_result()
}

fn verify_subtask(
    graph: &SubtaskGraph,
    chunks: &ChunkGraph,
    id: SubtaskId,
    seen: &mut [bool],
) -> Result<(), String> {
    if graph.ops(id).is_empty() {
        return Err("has no ops".to_string());
    }
    for &chunk in graph.ops(id) {
        if chunk.index() >= chunks.num_chunks() {
            return Err(format!("{chunk} is not in the chunk graph"));
        }
        if graph.subtask_of(chunk) != Some(id) || std::mem::replace(&mut seen[chunk.index()], true)
        {
            return Err(format!("{chunk} is run by another subtask too"));
        }
        for &input in chunks.inputs(chunk) {
            match graph.subtask_of(input) {
                Some(owner) if owner == id => {
                    if !seen[input.index()] {
                        return Err(format!("{chunk} reads {input}, which runs after it"));
                    }
                }
                Some(owner) if owner < id => {
                    if !graph.is_published(input) {
                        return Err(format!(
                            "reads {input} from {owner}, which does not publish it"
                        ));
                    }
                }
                Some(owner) => {
                    return Err(format!("reads {input} from the later subtask {owner}"));
                }
                None => return Err(format!("reads {input}, which no subtask runs")),
            }
        }
    }
    Ok(())
}
