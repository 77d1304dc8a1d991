//! Checks the invariants of a [`ChunkGraph`]. A failure is a tiler bug, never a user
//! error. The invariants:
//!
//! 1. **Exact tiling.** Every step's chunks tile its shape with no gap or overlap:
//!    each axis's chunk sizes sum to its length with no empty chunk (an empty axis has
//!    the single split `[0]`), the step has exactly one chunk per grid position, and
//!    those chunks are contiguous ids whose `index` counts up from 0 (C order).
//! 2. **Topological order.** A step's input steps have smaller ids; a chunk's inputs
//!    have smaller ids and belong to the step's input steps.
//! 3. **Arity.** Every chunk has as many inputs as its op takes.
//! 4. **Shapes.** The shapes (and, for chunk-aligned ops, the offsets) of a chunk's
//!    inputs agree with its op's rule: element-wise inputs cover the same region up to
//!    broadcast axes, reduction states keep the reduced axes as length 1, matmul
//!    blocks agree on the contracted length, relabels permute/insert/remove length-1
//!    axes, slices stay inside their input chunk, reshapes keep the element count,
//!    assembled chunks are covered exactly by their pieces, save regions match their
//!    data chunk.
//! 5. **Keys.** Each step's key is the hash of its op, dtype, layout and input keys.
//! 6. **Outputs.** Printed and saved steps exist; a save names a commit step; every
//!    recorded tileable step exists.

use super::{key, ChunkGraph, ChunkId, ChunkOp, ChunkOutput, LocalIndexItem, PrintItem, StepId};
use crate::error::{Problems, Violation};
use crate::ops::elementwise::ElementwiseChunk;
use crate::ops::geometry::expect_shape;
use crate::ops::reduction::StageChunk;

/// Checks every invariant listed in the module doc, reporting every broken one: the
/// steps' first, then (when the steps' structure holds, so every chunk can be looked
/// at) the chunks' and the outputs'.
pub fn verify(graph: &ChunkGraph) -> Result<(), Problems> {
    let mut problems = Problems::default();
    let mut expected_first = 0u32;
    for id in graph.step_ids() {
        problems.check(id, verify_step(graph, id, expected_first));
        expected_first += graph.step(id).num_chunks;
    }
    if expected_first as usize != graph.num_chunks() {
        problems.graph_wide(format!(
            "steps own {expected_first} chunks but the graph has {}",
            graph.num_chunks()
        ));
    }
    if !problems.is_empty() {
        return problems.into_result();
    }
    for chunk in graph.chunk_ids() {
        problems.check(chunk, verify_chunk(graph, chunk));
    }
    if let Err(problem) = verify_outputs(graph) {
        problems.graph_wide(problem.0);
    }
    problems.into_result()
}

fn verify_step(graph: &ChunkGraph, id: StepId, expected_first: u32) -> Result<(), Violation> {
    let step = graph.step(id);
    for (axis, splits) in step.layout.nsplits().iter().enumerate() {
        let empty_axis = splits == &[0];
        if splits.is_empty() || (!empty_axis && splits.contains(&0)) {
            return Err(format!("axis {axis} has splits {splits:?}").into());
        }
    }
    if step.layout.num_chunks() != step.num_chunks as u128 {
        return Err(format!(
            "grid {:?} needs {} chunks but the step has {}",
            step.layout.grid(),
            step.layout.num_chunks(),
            step.num_chunks
        )
        .into());
    }
    if step.first_chunk.0 != expected_first {
        return Err("chunks are not contiguous".into());
    }
    for (index, chunk) in step.chunk_ids().enumerate() {
        let node = graph.chunk(chunk);
        if node.step != id || node.index as usize != index {
            return Err(format!("{chunk} is not its chunk {index}").into());
        }
    }
    if let Some(input) = step.inputs.iter().find(|&&input| input >= id) {
        return Err(format!("input step {input} does not precede it").into());
    }
    let input_keys: Vec<u64> = step.inputs.iter().map(|&s| graph.step(s).key).collect();
    // A cached tensor's key is the one its chunks were computed under.
    let expected = (step.op.own_key())
        .unwrap_or_else(|| key::step_key(&step.op, step.dtype, &step.layout, &input_keys));
    if expected != step.key {
        return Err("key does not match its contents".into());
    }
    Ok(())
}

fn verify_chunk(graph: &ChunkGraph, chunk: ChunkId) -> Result<(), Violation> {
    let step = graph.step_of(chunk);
    let inputs = graph.inputs(chunk);
    let (low, high) = step.op.arity();
    if inputs.len() < low || inputs.len() > high {
        return Err(format!(
            "{} takes {low}..={high} inputs, has {}",
            step.op.name(),
            inputs.len()
        )
        .into());
    }
    for &input in inputs {
        if input >= chunk {
            return Err(format!("input {input} does not precede it").into());
        }
        let input_step = graph.chunk(input).step;
        // A scan's carries form a chain inside their own step.
        let own_chain = step.op.reads_own_step() && graph.step(input_step) == step;
        if !step.inputs.contains(&input_step) && !own_chain {
            return Err(format!("input {input} is not from an input step").into());
        }
    }
    verify_shapes(graph, chunk)
}

fn verify_shapes(graph: &ChunkGraph, chunk: ChunkId) -> Result<(), Violation> {
    let step = graph.step_of(chunk);
    let inputs = graph.inputs(chunk);
    let out = graph.data_shape(chunk);
    let shape = |i: usize| graph.data_shape(inputs[i]);
    match &step.op {
        ChunkOp::Elementwise(op) => op.verify_chunk(&InGraph { graph, chunk }),
        ChunkOp::Reduce(stage) => stage.verify(&InGraph { graph, chunk }),
        ChunkOp::SumBlocks { .. } => {
            (0..inputs.len()).try_for_each(|i| expect_shape(&shape(i), &out, "part"))
        }
        ChunkOp::MatMulBlock { .. } if !inputs.len().is_multiple_of(2) => {
            Err(format!("matmul.block takes pairs, has {} inputs", inputs.len()).into())
        }
        ChunkOp::MatMulBlock { .. } => (0..inputs.len()).step_by(2).try_for_each(|i| {
            let (a, b) = (shape(i), shape(i + 1));
            match (a.as_slice(), b.as_slice(), out.as_slice()) {
                ([r, k1], [k2, c], [ro, co]) if k1 == k2 && r == ro && c == co => Ok(()),
                _ => Err(format!("block shapes {a:?} @ {b:?} do not give {out:?}").into()),
            }
        }),
        ChunkOp::Shape(op) => op.verify_chunk(&InGraph { graph, chunk }),
        ChunkOp::Slice { .. } => {
            let sliced: Vec<usize> = graph
                .slice_items(chunk)?
                .iter()
                .filter_map(|item| match item {
                    LocalIndexItem::Index(_) => None,
                    LocalIndexItem::Range { len, .. } => Some(*len),
                    LocalIndexItem::NewAxis => Some(1),
                })
                .collect();
            expect_shape(&sliced, &out, "sliced")
        }
        ChunkOp::Alias => expect_shape(&shape(0), &out, "alias"),
        ChunkOp::Linalg(op) => super::super::tile::verify_linalg_chunk(
            *op,
            &out,
            &inputs
                .iter()
                .map(|&i| graph.data_shape(i))
                .collect::<Vec<_>>(),
        ),
        ChunkOp::Assemble => exact_cover(graph, chunk),
        ChunkOp::Corners => super::corners::verify_corners(graph, chunk),
        ChunkOp::CountTrue => expect_shape(&out, &[1], "count"),
        ChunkOp::IndexBlocks { splits } => expect_shape(&out, &[1, splits.len() + 2], "counts"),
        ChunkOp::BinCounts(binning) => expect_shape(&out, &[1, binning.bins()], "bin counts"),
        ChunkOp::Scatter { .. } => expect_shape(&shape(0), &out, "scattered"),
        ChunkOp::Gather { axis } => {
            let idx = shape(0);
            let mut expected = shape(1);
            if idx.len() != 1 || expected.len() <= *axis {
                return Err(format!("gather of {expected:?} by an index of shape {idx:?}").into());
            }
            expected[*axis] = idx[0];
            expect_shape(&expected, &out, "gathered")
        }
        ChunkOp::Sort(stage) => stage.verify(&InGraph { graph, chunk }),
        ChunkOp::Compress { axis } => {
            let (x, mask) = (shape(0), shape(1));
            let k = mask.len();
            let mut expected = x.clone();
            if k == 0 || axis + k > x.len() || x[*axis..axis + k] != mask[..] {
                return Err(format!("mask {mask:?} does not cover axes {axis}.. of {x:?}").into());
            }
            expected.splice(axis..&(axis + k), [out.get(*axis).copied().unwrap_or(0)]);
            expect_shape(&expected, &out, "selection")
        }
        ChunkOp::SaveInit { .. } => match inputs {
            [previous] if matches!(graph.step_of(*previous).op, ChunkOp::SaveCommit { .. }) => {
                Ok(())
            }
            [] => Ok(()),
            _ => Err("a save's init waits only on an earlier commit".into()),
        },
        ChunkOp::SaveRegion { .. } => {
            expect_shape(&shape(0), &out, "region")?;
            if graph.chunk_offset(inputs[0]) != graph.chunk_offset(chunk) {
                return Err("region offset differs from its data chunk".into());
            }
            match graph.step_of(inputs[1]).op {
                ChunkOp::SaveInit { .. } => Ok(()),
                _ => Err("a save region's second input must be the init".into()),
            }
        }
        ChunkOp::SaveCommit { .. } => {
            let region_step = graph.chunk(inputs[0]).step;
            let expected: Vec<ChunkId> = graph.step(region_step).chunk_ids().collect();
            if inputs == expected.as_slice()
                && matches!(graph.step(region_step).op, ChunkOp::SaveRegion { .. })
            {
                Ok(())
            } else {
                Err("a commit waits on every region of one save".into())
            }
        }
        ChunkOp::Create(_) => Ok(()),
    }
}

/// One chunk as an op family's verifier asks about it.
struct InGraph<'a> {
    graph: &'a ChunkGraph,
    chunk: ChunkId,
}

impl StageChunk for InGraph<'_> {
    fn id(&self) -> ChunkId {
        self.chunk
    }

    fn inputs(&self) -> &[ChunkId] {
        self.graph.inputs(self.chunk)
    }

    fn shape(&self, chunk: ChunkId) -> Vec<usize> {
        self.graph.data_shape(chunk)
    }

    fn offset(&self, chunk: ChunkId) -> Vec<usize> {
        self.graph.chunk_offset(chunk)
    }
}

impl ElementwiseChunk for InGraph<'_> {
    fn tensor_shape(&self, chunk: ChunkId) -> Vec<usize> {
        self.graph.step_of(chunk).layout.shape().to_vec()
    }
}

/// The pieces of an assembled chunk cover it exactly: distinct input chunks of one
/// step, exactly those that overlap it, their overlaps adding up to its volume.
fn exact_cover(graph: &ChunkGraph, chunk: ChunkId) -> Result<(), Violation> {
    let inputs = graph.inputs(chunk);
    let source = graph.chunk(inputs[0]).step;
    if inputs.iter().any(|&i| graph.chunk(i).step != source)
        || inputs.windows(2).any(|w| w[0] >= w[1])
    {
        return Err("pieces must be distinct chunks of one step, in order".into());
    }
    let (offset, shape) = (graph.chunk_offset(chunk), graph.chunk_shape(chunk));
    let layout = &graph.step(source).layout;
    if layout.shape() != graph.step_of(chunk).layout.shape() {
        return Err("assembled from a tensor of another shape".into());
    }
    let overlapping: usize = (0..offset.len())
        .map(|axis| {
            let first = layout.chunk_at(axis, offset[axis]);
            let last =
                layout.chunk_at(axis, (offset[axis] + shape[axis]).max(offset[axis] + 1) - 1);
            last - first + 1
        })
        .product();
    let volume: usize = shape.iter().product();
    let covered: usize = graph
        .assemble_pieces(chunk)
        .iter()
        .map(|piece| piece.region.iter().map(|r| r.len()).product::<usize>())
        .sum();
    if overlapping != inputs.len() || covered != volume {
        return Err(format!(
            "{} pieces covering {covered} of {volume} elements ({overlapping} chunks overlap)",
            inputs.len()
        )
        .into());
    }
    Ok(())
}

fn verify_outputs(graph: &ChunkGraph) -> Result<(), Violation> {
    let exists = |step: StepId| step.index() < graph.steps().len();
    for output in &graph.outputs {
        match output {
            ChunkOutput::Print { items, .. } => {
                for item in items {
                    if let PrintItem::Summary { whole, corners } = item {
                        if !exists(*whole)
                            || !exists(*corners)
                            || graph.step(*corners).op != ChunkOp::Corners
                            || graph.step(*corners).inputs != [*whole]
                        {
                            return Err(format!("{corners} is not the corners of {whole}").into());
                        }
                    }
                    if let Some(step) = item.printed_step() {
                        if !exists(step) {
                            return Err(format!("print of missing step {step}").into());
                        }
                    }
                }
            }
            ChunkOutput::Save { commit, .. } => {
                if !exists(*commit) || !matches!(graph.step(*commit).op, ChunkOp::SaveCommit { .. })
                {
                    return Err(format!("save of {commit}, which is not a commit step").into());
                }
            }
        }
    }
    match graph.tileable_steps.iter().flatten().find(|s| !exists(**s)) {
        Some(step) => Err(format!("a tileable maps to missing step {step}").into()),
        None => Ok(()),
    }
}
