//! The tiling pass: TileableGraph → ChunkGraph. Every tensor is split into the chunks
//! its nsplits describe and every operation into chunk operations, one small rule per
//! family of ops (one file each). Rules trust the nsplits that inference gave each
//! node; when a rule's natural output chunking differs from them (which only happens
//! if inference and tiling disagree), a rechunk restores the node's nsplits, so the
//! graph is always correct and the mismatch only costs edges.

mod creation;
mod elementwise;
mod grid_map;
mod histogram;
mod index;
mod linalg;
mod matmul;
mod print;
mod rechunk;
mod reduce;
mod relabel;
mod reshape;
mod save;
mod scan;
mod scatter;
mod select;
mod sort;

pub use index::{select_slice, SlicePiece};
pub(crate) use linalg::verify_linalg_chunk;
pub(crate) use rechunk::chunk_count;
pub use rechunk::{plan_rechunk, rechunk_edges};
pub use reduce::{combine_groups, reduction_levels};

use crate::chunk::{ChunkGraph, ChunkOp, ChunkOutput, Layout, PrintItem, StepId, TooManyChunks};
use crate::tileable::{Output, TileOp, TileableGraph, TileableId, TileableNode};
use grid_map::GridMap;
use marsc_runtime::DType;
use std::collections::HashMap;
use std::fmt;

/// Knobs of the tiling pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileOptions {
    /// Fan-in of reduction and matmul-sum trees: how many partial results one
    /// combine chunk merges (spread over the reduced axes).
    pub combine_size: usize,
    /// A rechunk goes through an intermediate chunking when the direct one would
    /// need more than this many input pieces per output chunk on average.
    pub rechunk_threshold: usize,
}

impl Default for TileOptions {
    fn default() -> TileOptions {
        TileOptions {
            combine_size: 4,
            rechunk_threshold: 4,
        }
    }
}

/// Why tiling stopped. Lowering has already rejected every bad program, so the only
/// failure is a graph too large to number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileError(pub String);

impl fmt::Display for TileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TileError {}

impl From<TooManyChunks> for TileError {
    fn from(error: TooManyChunks) -> TileError {
        TileError(format!(
            "the program needs {} chunks, more than the {} marsc can number; use larger chunks",
            error.requested,
            u32::MAX
        ))
    }
}

pub type TileResult<T> = Result<T, TileError>;

/// Tiles the whole program.
pub fn tile(graph: &TileableGraph, options: &TileOptions) -> TileResult<ChunkGraph> {
    let mut tiler = Tiler {
        source: graph,
        options: TileOptions {
            combine_size: options.combine_size.max(2),
            rechunk_threshold: options.rechunk_threshold.max(1),
        },
        out: ChunkGraph::new(),
        steps_of: Vec::with_capacity(graph.len()),
        rechunks: HashMap::new(),
        tsqr: HashMap::new(),
    };
    for id in graph.ids() {
        let step = tiler.tile_node(id)?;
        tiler.steps_of.push(step);
    }
    tiler.outputs()?;
    let mut chunk_graph = tiler.out;
    chunk_graph.tileable_steps = tiler.steps_of.into_iter().map(Some).collect();
    Ok(chunk_graph)
}

/// The state of one tiling pass.
pub(crate) struct Tiler<'a> {
    source: &'a TileableGraph,
    options: TileOptions,
    out: ChunkGraph,
    /// The step holding each tiled tileable's chunks, with the node's nsplits.
    steps_of: Vec<StepId>,
    /// Rechunks already built, so consumers needing the same chunking share one.
    rechunks: HashMap<(StepId, Vec<Vec<usize>>), StepId>,
    /// TSQR's local and stacked QR steps per row-chunked input, shared by its `Q`
    /// and its `R` (`linalg.rs`).
    tsqr: HashMap<StepId, (StepId, StepId)>,
}

impl Tiler<'_> {
    fn tile_node(&mut self, id: TileableId) -> TileResult<StepId> {
        let node = self.source.node(id);
        let step = match &node.op {
            TileOp::Create(op) => self.tile_creation(id, node, op)?,
            TileOp::Elementwise(op) => self.tile_elementwise(id, node, *op)?,
            TileOp::Reduce(op) => self.tile_reduction(id, node, op)?,
            TileOp::MatMul => self.tile_matmul(id, node)?,
            TileOp::Shape(op) => self.tile_shape(id, node, op)?,
            TileOp::Index { items } => self.tile_index(id, node, items)?,
            TileOp::Concatenate { axis } => self.tile_concatenate(id, node, *axis)?,
            TileOp::Rechunk => self.input(node, 0),
            TileOp::BlockCounts => self.tile_block_counts(id, node)?,
            TileOp::Compress { axis, counts } => self.tile_compress(id, node, *axis, counts)?,
            TileOp::IndexBlocks { .. } => self.tile_index_blocks(id, node)?,
            TileOp::BinCounts(binning) => self.tile_bin_counts(id, node, binning)?,
            TileOp::Scatter { axis, touched } => self.tile_scatter(id, node, *axis, touched)?,
            TileOp::Gather { axis, touched } => self.tile_gather(id, node, *axis, touched)?,
            TileOp::Linalg(op) => self.tile_linalg(id, node, *op)?,
            TileOp::Sort(op) => self.tile_sorting(id, node, op)?,
        };
        self.ensure_nsplits(step, &node.nsplits, id)
    }

    /// The step holding input `position` of `node`.
    fn input(&self, node: &TileableNode, position: usize) -> StepId {
        self.steps_of[node.inputs[position].index()]
    }

    fn layout(&self, step: StepId) -> &Layout {
        &self.out.step(step).layout
    }

    /// Adds a step whose chunk at each grid position reads, from each input, the
    /// chunk its [`GridMap`] names.
    fn add_mapped(
        &mut self,
        op: ChunkOp,
        tileable: TileableId,
        dtype: DType,
        layout: Layout,
        inputs: &[(StepId, GridMap)],
    ) -> TileResult<StepId> {
        let grid = layout.grid();
        let input_steps: Vec<StepId> = inputs.iter().map(|(s, _)| *s).collect();
        let firsts: Vec<u32> = input_steps
            .iter()
            .map(|&s| self.out.step(s).first_chunk.0)
            .collect();
        let step = self
            .out
            .add_step(op, tileable, dtype, layout, input_steps)?;
        let count = self.out.step(step).num_chunks as usize;
        self.out.reserve_edges(count * inputs.len());
        let mut chunk_inputs = Vec::with_capacity(inputs.len());
        let out = &mut self.out;
        crate::chunk::layout::for_each_position(&grid, |position| {
            chunk_inputs.clear();
            for ((_, map), &first) in inputs.iter().zip(&firsts) {
                chunk_inputs.push(crate::chunk::ChunkId(first + map.index(position) as u32));
            }
            out.push_chunk(&chunk_inputs);
        });
        self.check_edges(step)
    }

    /// Adds a step whose chunks' inputs are listed by `inputs_of(index, position, out)`.
    fn add_listed(
        &mut self,
        op: ChunkOp,
        tileable: TileableId,
        dtype: DType,
        layout: Layout,
        input_steps: Vec<StepId>,
        mut inputs_of: impl FnMut(&[usize], &mut Vec<crate::chunk::ChunkId>),
    ) -> TileResult<StepId> {
        let grid = layout.grid();
        let step = self
            .out
            .add_step(op, tileable, dtype, layout, input_steps)?;
        let mut chunk_inputs = Vec::new();
        let out = &mut self.out;
        crate::chunk::layout::for_each_position(&grid, |position| {
            chunk_inputs.clear();
            inputs_of(position, &mut chunk_inputs);
            out.push_chunk(&chunk_inputs);
        });
        self.check_edges(step)
    }

    /// Edge positions are 32-bit too; a graph past that is refused, not wrapped.
    fn check_edges(&self, step: StepId) -> TileResult<StepId> {
        if self.out.num_edges() > u32::MAX as usize {
            return Err(TileError(format!(
                "the program needs {} chunk edges, more than the {} marsc can number; use larger chunks",
                self.out.num_edges(),
                u32::MAX
            )));
        }
        Ok(step)
    }

    fn outputs(&mut self) -> TileResult<()> {
        let mut last_commit: HashMap<std::path::PathBuf, StepId> = HashMap::new();
        let mut corners = HashMap::new();
        for output in &self.source.outputs {
            let tiled = match output {
                Output::Print {
                    items, sep, end, ..
                } => ChunkOutput::Print {
                    items: items
                        .iter()
                        .map(|item| match item {
                            crate::tileable::PrintItem::Text(text) => {
                                Ok(PrintItem::Text(text.clone()))
                            }
                            crate::tileable::PrintItem::Tensor(id) => {
                                self.tile_printed(*id, &mut corners)
                            }
                        })
                        .collect::<TileResult<_>>()?,
                    sep: sep.clone(),
                    end: end.clone(),
                },
                Output::Save {
                    path,
                    tensor,
                    format,
                    ..
                } => {
                    let previous = last_commit.get(path).copied();
                    let commit = self.tile_save(*tensor, path, format, previous)?;
                    last_commit.insert(path.clone(), commit);
                    ChunkOutput::Save {
                        path: path.clone(),
                        commit,
                    }
                }
            };
            self.out.outputs.push(tiled);
        }
        Ok(())
    }
}

#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod script_tests;
#[cfg(test)]
mod tests;
