//! The `--emit subtask` text dump: `Display` for [`SubtaskGraph`] (with the
//! ChunkGraph it groups) *is* the format.
//!
//! A header with the totals, one line per subtask in id order, then the results:
//!
//! ```text
//! subtask graph: 3 subtasks, 3 chunk ops, 1 result
//! st0 priority 0 worker - | c0 = full (s0) | in [] | out [c0]
//! st2 priority 2 worker - | c2 = add(c0, c1) (s2) | in [c0 c1] | out [c2]
//! results [c2]
//! ```
//!
//! Each op is `chunk = name(arguments)` with its step; `in` lists the chunks read from
//! other subtasks, `out` the chunks the subtask publishes. Long id lists are written
//! as runs (`c4..c9`) and cut after a few runs (`… +N`).

use super::{SubtaskGraph, SubtaskId};
use crate::chunk::{ChunkGraph, ChunkId};
use std::fmt::{self, Write};

/// Runs of ids listed before the rest are counted.
const RUNS_SHOWN: usize = 6;
/// Arguments of an op listed before the rest are counted.
const ARGS_SHOWN: usize = 8;

/// A subtask graph shown with the chunk graph its ops come from.
pub struct WithChunks<'a> {
    pub subtasks: &'a SubtaskGraph,
    pub chunks: &'a ChunkGraph,
}

impl SubtaskGraph {
    /// Pairs the graph with its ChunkGraph for display.
    pub fn with_chunks<'a>(&'a self, chunks: &'a ChunkGraph) -> WithChunks<'a> {
        WithChunks {
            subtasks: self,
            chunks,
        }
    }
}

impl fmt::Display for WithChunks<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let graph = self.subtasks;
        let results = graph.results().len();
        writeln!(
            f,
            "subtask graph: {} subtasks, {} chunk ops, {} result{}",
            graph.len(),
            graph.num_ops(),
            results,
            if results == 1 { "" } else { "s" }
        )?;
        for id in graph.ids() {
            writeln!(f, "{}", subtask_text(graph, self.chunks, id))?;
        }
        writeln!(f, "results [{}]", runs_text(graph.results(), RUNS_SHOWN))
    }
}

/// One subtask's line.
pub fn subtask_text(graph: &SubtaskGraph, chunks: &ChunkGraph, id: SubtaskId) -> String {
    let subtask = graph.subtask(id);
    let worker = subtask
        .worker
        .map_or_else(|| "-".to_string(), |w| w.to_string());
    let ops: Vec<String> = graph
        .ops(id)
        .iter()
        .map(|&chunk| op_text(chunks, chunk))
        .collect();
    let outputs: Vec<ChunkId> = graph.outputs(id).collect();
    format!(
        "{id} priority {} worker {worker} | {} | in [{}] | out [{}]",
        subtask.priority,
        ops.join("; "),
        runs_text(&graph.inputs(chunks, id), RUNS_SHOWN),
        runs_text(&outputs, RUNS_SHOWN)
    )
}

fn op_text(chunks: &ChunkGraph, chunk: ChunkId) -> String {
    let step = chunks.chunk(chunk).step;
    let name = chunks.step(step).op.name();
    let inputs = chunks.inputs(chunk);
    if inputs.is_empty() {
        format!("{chunk} = {name} ({step})")
    } else {
        let mut listed: Vec<String> = inputs
            .iter()
            .take(ARGS_SHOWN)
            .map(|c| c.to_string())
            .collect();
        if inputs.len() > ARGS_SHOWN {
            listed.push(format!("… +{}", inputs.len() - ARGS_SHOWN));
        }
        format!("{chunk} = {name}({}) ({step})", listed.join(", "))
    }
}

/// Ids as runs of consecutive ids (`c3..c6 c9`), the first `limit` runs only.
pub fn runs_text(ids: &[ChunkId], limit: usize) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for id in ids {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == id.0 => *end = id.0,
            _ => runs.push((id.0, id.0)),
        }
    }
    let mut text = String::new();
    for (position, &(start, end)) in runs.iter().take(limit).enumerate() {
        if position > 0 {
            text.push(' ');
        }
        if start == end {
            let _ = write!(text, "c{start}");
        } else {
            let _ = write!(text, "c{start}..c{end}");
        }
    }
    if runs.len() > limit {
        let _ = write!(text, " … +{}", runs.len() - limit);
    }
    text
}
