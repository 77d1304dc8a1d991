//! The `--emit chunk` text dump: `Display` for [`ChunkGraph`] *is* the format.
//!
//! A header line with the totals, one line per step, then the outputs:
//!
//! ```text
//! chunk graph: 3 steps, 9 chunks, 8 edges
//! s0 = full(value=1.0f64) : float64 (4, 6) chunks (2x2, 3x2) grid (2, 2) key 1f..e0 from %0 | c0..c3
//! s2 = add(s0, s1, common=float64) : ... | c5..c8 = [c0 c4] [c1 c4] [c2 c4] [c3 c4]
//! print(s2, sep=" ", end="\n")
//! ```
//!
//! After `|` come the step's chunk ids and, for the first few chunks, their inputs in
//! order (runs of consecutive ids written `c0..c3`); `… +N` stands for the rest.

use super::{ChunkGraph, ChunkId, ChunkOp, ChunkOutput, PrintItem, Step, StepId};
use crate::tileable::display::{binning_parameters, index_item_text, nsplits_text, shape_text};
use std::fmt::{self, Write};

/// Chunks whose inputs are listed per step; the rest are counted.
const CHUNKS_SHOWN: usize = 8;
/// Input runs listed per chunk.
const RUNS_SHOWN: usize = 6;

impl fmt::Display for ChunkGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "chunk graph: {} steps, {} chunks, {} edges",
            self.steps().len(),
            self.num_chunks(),
            self.num_edges()
        )?;
        for id in self.step_ids() {
            writeln!(f, "{id} = {}", step_text(self, id))?;
        }
        for output in &self.outputs {
            writeln!(f, "{}", output_text(output))?;
        }
        Ok(())
    }
}

/// Everything after `sN = ` for one step.
pub fn step_text(graph: &ChunkGraph, id: StepId) -> String {
    let step = graph.step(id);
    let mut arguments: Vec<String> = step.inputs.iter().map(|s| s.to_string()).collect();
    arguments.extend(op_parameters(&step.op));
    format!(
        "{}({}) : {} {} chunks {} grid {} key {:016x} from {} | {}",
        step.op.name(),
        arguments.join(", "),
        step.dtype,
        shape_text(step.layout.shape()),
        nsplits_text(step.layout.nsplits()),
        shape_text(&step.layout.grid()),
        step.key,
        step.tileable,
        chunks_text(graph, step)
    )
}

fn chunks_text(graph: &ChunkGraph, step: &Step) -> String {
    // A step's chunks are contiguous, so first..last names them all.
    let first = step.first_chunk;
    let mut text = match step.num_chunks {
        1 => first.to_string(),
        n => format!("{first}..{}", ChunkId(first.0 + n - 1)),
    };
    if step.chunk_ids().all(|c| graph.inputs(c).is_empty()) {
        return text;
    }
    text.push_str(" =");
    for chunk in step.chunk_ids().take(CHUNKS_SHOWN) {
        let _ = write!(text, " [{}]", runs_text(graph.inputs(chunk), RUNS_SHOWN));
    }
    if step.num_chunks as usize > CHUNKS_SHOWN {
        let _ = write!(text, " … +{}", step.num_chunks as usize - CHUNKS_SHOWN);
    }
    text
}

/// Ids with runs of three or more consecutive ids as `c3..c7`, at most `limit` runs then `…+N`.
fn runs_text(ids: &[ChunkId], limit: usize) -> String {
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1].0 == ids[j].0 + 1 {
            j += 1;
        }
        // Two neighbours read better as themselves (`[c4 c5]`) than as a range.
        if j - i >= 2 {
            runs.push(format!("{}..{}", ids[i], ids[j]));
            i = j + 1;
        } else {
            runs.push(ids[i].to_string());
            i += 1;
        }
    }
    if runs.len() > limit {
        let rest = runs.len() - limit;
        runs.truncate(limit);
        runs.push(format!("…+{rest}"));
    }
    runs.join(" ")
}

/// The op's parameters as `name=value` texts, in a fixed order.
fn op_parameters(op: &ChunkOp) -> Vec<String> {
    match op {
        ChunkOp::Linalg(_) => vec![],
        ChunkOp::Create(op) => op.chunk_parameters(),
        ChunkOp::Elementwise(op) => op.parameters(),
        ChunkOp::Reduce(stage) => stage.chunk_parameters(),
        ChunkOp::MatMulBlock { partial } | ChunkOp::SumBlocks { partial } => {
            if *partial {
                vec!["partial".into()]
            } else {
                vec![]
            }
        }
        ChunkOp::Shape(op) => op.parameters(),
        ChunkOp::Slice { items } => {
            let items: Vec<String> = items.iter().map(index_item_text).collect();
            vec![format!("[{}]", items.join(", "))]
        }
        ChunkOp::SaveInit {
            path,
            shape,
            format,
        } => {
            let mut parameters = vec![
                format!("{:?}", path.display().to_string()),
                format!("shape={}", shape_text(shape)),
            ];
            parameters.extend(format.dump_parameters());
            parameters
        }
        ChunkOp::SaveRegion { path } | ChunkOp::SaveCommit { path } => {
            vec![format!("{:?}", path.display().to_string())]
        }
        ChunkOp::Alias | ChunkOp::Assemble | ChunkOp::Corners | ChunkOp::CountTrue => vec![],
        ChunkOp::Compress { axis } | ChunkOp::Gather { axis } | ChunkOp::Scatter { axis } => {
            vec![format!("axis={axis}")]
        }
        ChunkOp::IndexBlocks { splits } => vec![format!("blocks={}", splits.len())],
        ChunkOp::Sort(stage) => stage.chunk_parameters(),
        ChunkOp::BinCounts(binning) => binning_parameters(binning),
    }
}

fn output_text(output: &ChunkOutput) -> String {
    match output {
        ChunkOutput::Print { items, sep, end } => {
            let mut parts: Vec<String> = items
                .iter()
                .map(|item| match item {
                    PrintItem::Text(text) => format!("{text:?}"),
                    PrintItem::Tensor(step) => step.to_string(),
                    PrintItem::Summary { whole, corners } => {
                        format!("{corners} (corners of {whole})")
                    }
                })
                .collect();
            parts.push(format!("sep={sep:?}"));
            parts.push(format!("end={end:?}"));
            format!("print({})", parts.join(", "))
        }
        ChunkOutput::Save { path, commit } => {
            format!("save({:?}, {commit})", path.display().to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_compress_consecutive_ids() {
        let ids = [
            ChunkId(0),
            ChunkId(1),
            ChunkId(2),
            ChunkId(7),
            ChunkId(9),
            ChunkId(10),
        ];
        assert_eq!(runs_text(&ids, 8), "c0..c2 c7 c9 c10");
        assert_eq!(runs_text(&ids, 2), "c0..c2 c7 …+2");
        assert_eq!(runs_text(&[], 2), "");
    }
}
