//! Materializing one chunk's concrete [`Kernel`] from its step's [`ChunkOp`] and the
//! chunk's index: offsets, shapes, local slice items and assembled pieces are
//! resolved here, once per chunk. Step-wide parameters (axes, a tensor's shape, a
//! file) are built once per step and shared through `Arc`s, so planning a million
//! chunks allocates little beyond each chunk's own offset and shape.

use crate::chunk::corners::corner_pieces;
use crate::chunk::{ChunkGraph, ChunkId, ChunkOp, LocalIndexItem, StepId};
use crate::error::InternalError;
use crate::ops::creation::{ChunkSite, CreationShared};
use crate::ops::reduction::{ReduceSite, ReductionShared};
use crate::ops::shape::{ShapeShared, ShapeSite};
use crate::ops::sort::SortSite;
use marsc_runtime::chunk_kernel::{AssemblePiece, Kernel, SaveFile};
use marsc_runtime::kernels::shape::SliceItem;
use marsc_runtime::storage::{SaveFormat, SharedReaders};
use std::path::Path;
use std::sync::Arc;

/// What every chunk of one step shares, built on first use.
#[derive(Default)]
struct StepShared {
    creation: CreationShared,
    reduction: ReductionShared,
    shape: ShapeShared,
    save: Option<Arc<SaveFile>>,
}

/// Builds kernels chunk by chunk, caching per-step parameters.
pub struct KernelBuilder<'a> {
    chunks: &'a ChunkGraph,
    shared: Vec<StepShared>,
    /// A chunk's grid position, reused so placing a chunk allocates only its result.
    position: Vec<usize>,
    /// The readers every load of a store shares (one mapping per file per run).
    shared_readers: SharedReaders,
}

impl<'a> KernelBuilder<'a> {
    pub fn new(chunks: &'a ChunkGraph) -> KernelBuilder<'a> {
        let mut shared = Vec::with_capacity(chunks.steps().len());
        shared.resize_with(chunks.steps().len(), StepShared::default);
        KernelBuilder {
            chunks,
            shared,
            position: Vec::new(),
            shared_readers: SharedReaders::default(),
        }
    }

    /// The kernel computing `chunk`, or an internal error (a tiler bug).
    pub fn kernel(&mut self, chunk: ChunkId) -> Result<Kernel, InternalError> {
        self.build(chunk)
            .map_err(|message| InternalError::new("plan", message))
    }

    fn build(&mut self, chunk: ChunkId) -> Result<Kernel, String> {
        let graph = self.chunks;
        let step_id = graph.chunk(chunk).step;
        let step = graph.step(step_id);
        let kernel = match &step.op {
            ChunkOp::Create(op) => op
                .chunk_kernel(&mut FamilySite {
                    builder: self,
                    chunk,
                    step: step_id,
                })
                .map_err(|error| error.message)?,
            ChunkOp::Elementwise(op) => op.chunk_kernel(step.dtype),
            ChunkOp::Reduce(stage) => stage
                .chunk_kernel(&mut FamilySite {
                    builder: self,
                    chunk,
                    step: step_id,
                })
                .map_err(|error| error.message)?,
            ChunkOp::MatMulBlock { .. } => Kernel::MatMulBlock,
            ChunkOp::SumBlocks { .. } => Kernel::SumBlocks,
            ChunkOp::Linalg(op) => Kernel::Linalg {
                op: *op,
                index: graph.chunk(chunk).index as usize,
            },
            ChunkOp::Shape(op) => op.chunk_kernel(&mut FamilySite {
                builder: self,
                chunk,
                step: step_id,
            }),
            ChunkOp::Slice { .. } => Kernel::Slice(slice_items(graph, chunk)?),
            ChunkOp::Alias => Kernel::Alias,
            ChunkOp::Assemble => assemble(graph, chunk),
            ChunkOp::Corners => corners(graph, chunk)?,
            ChunkOp::CountTrue => Kernel::CountTrue,
            ChunkOp::Compress { axis } => Kernel::Compress {
                axis: *axis,
                len: self.shape(chunk)[*axis],
            },
            ChunkOp::IndexBlocks { splits } => {
                let starts: Vec<usize> = splits
                    .iter()
                    .scan(0, |at, &len| {
                        let start = *at;
                        *at += len;
                        Some(start)
                    })
                    .collect();
                Kernel::IndexBlocks {
                    starts: starts.into(),
                    len: splits.iter().sum(),
                }
            }
            ChunkOp::BinCounts(binning) => Kernel::BinCounts(binning.clone()),
            ChunkOp::Scatter { axis } => {
                let x = self.chunks.inputs(chunk)[0];
                Kernel::Scatter {
                    axis: *axis,
                    start: graph.chunk_offset(chunk)[*axis],
                    len: graph.step_of(x).layout.shape()[*axis],
                }
            }
            ChunkOp::Gather { axis } => {
                let blocks = &self.chunks.inputs(chunk)[1..];
                let first = blocks
                    .first()
                    .ok_or_else(|| format!("internal error: gather {chunk} reads no block"))?;
                Kernel::Gather {
                    axis: *axis,
                    starts: blocks
                        .iter()
                        .map(|&b| graph.chunk_offset(b)[*axis])
                        .collect(),
                    len: graph.step_of(*first).layout.shape()[*axis],
                }
            }
            ChunkOp::Sort(stage) => stage.chunk_kernel(&mut FamilySite {
                builder: self,
                chunk,
                step: step_id,
            }),
            ChunkOp::SaveInit {
                path,
                shape,
                format,
            } => Kernel::SaveInit(self.save_file(step_id, path, shape, format)),
            ChunkOp::SaveRegion { .. } => {
                let init = self.save_init_of(chunk)?;
                Kernel::SaveRegion {
                    file: self.existing_save(init)?,
                    offset: self.offset(chunk),
                }
            }
            ChunkOp::SaveCommit { .. } => {
                let region =
                    self.chunks.inputs(chunk).first().copied().ok_or_else(|| {
                        format!("internal error: save commit {chunk} has no regions")
                    })?;
                let init = self.save_init_of(region)?;
                Kernel::SaveCommit(self.existing_save(init)?)
            }
        };
        Ok(kernel)
    }

    /// `chunk`'s layout and grid position (in the reused buffer).
    fn place(&mut self, chunk: ChunkId) -> (&'a crate::chunk::Layout, &[usize]) {
        let graph: &'a ChunkGraph = self.chunks;
        let node = graph.chunk(chunk);
        let layout = &graph.step(node.step).layout;
        self.position.resize(layout.ndim(), 0);
        layout.grid_position_into(node.index as usize, &mut self.position);
        (layout, &self.position)
    }

    /// The offset and length of a 1-D chunk (creation ops along axis 0).
    fn first_axis(&mut self, chunk: ChunkId) -> (usize, usize) {
        let (layout, position) = self.place(chunk);
        match position.first() {
            Some(&p) => (layout.offsets(0)[p], layout.nsplits()[0][p]),
            None => (0, 1),
        }
    }

    /// The chunk's offset in its step's tensor (as `ChunkGraph::chunk_offset`).
    fn offset(&mut self, chunk: ChunkId) -> Vec<usize> {
        let (layout, position) = self.place(chunk);
        let offsets = position.iter().enumerate();
        offsets.map(|(axis, &p)| layout.offsets(axis)[p]).collect()
    }

    /// The chunk's shape (as `ChunkGraph::chunk_shape`).
    fn shape(&mut self, chunk: ChunkId) -> Vec<usize> {
        let (layout, position) = self.place(chunk);
        let sizes = position.iter().enumerate();
        sizes.map(|(axis, &p)| layout.nsplits()[axis][p]).collect()
    }

    fn only_input(&self, chunk: ChunkId) -> Result<ChunkId, String> {
        match self.chunks.inputs(chunk) {
            [input] => Ok(*input),
            inputs => Err(format!(
                "internal error: {chunk} needs one input, has {}",
                inputs.len()
            )),
        }
    }

    fn save_file(
        &mut self,
        step: StepId,
        path: &Path,
        shape: &[usize],
        format: &SaveFormat,
    ) -> Arc<SaveFile> {
        let dtype = self.chunks.step(step).dtype;
        self.shared[step.index()]
            .save
            .get_or_insert_with(|| Arc::new(SaveFile::with_format(path, format, dtype, shape)))
            .clone()
    }

    /// The init step of the save a region chunk writes into (its second input).
    fn save_init_of(&self, region: ChunkId) -> Result<StepId, String> {
        match self.chunks.inputs(region) {
            [_, init] => Ok(self.chunks.chunk(*init).step),
            _ => Err(format!(
                "internal error: save region {region} must read [data, init]"
            )),
        }
    }

    fn existing_save(&mut self, init: StepId) -> Result<Arc<SaveFile>, String> {
        let ChunkOp::SaveInit {
            path,
            shape,
            format,
        } = &self.chunks.step(init).op
        else {
            return Err(format!("internal error: {init} is not a save init"));
        };
        Ok(self.save_file(init, path, shape, format))
    }
}

/// One chunk of a step of an op family, as the family asks the planner about it
/// (`ops::creation`'s `ChunkSite`, `ops::reduction`'s `ReduceSite`, `ops::shape`'s
/// `ShapeSite`, `ops::sort`'s `SortSite`).
struct FamilySite<'b, 'a> {
    builder: &'b mut KernelBuilder<'a>,
    chunk: ChunkId,
    step: StepId,
}

impl ChunkSite for FamilySite<'_, '_> {
    fn chunk(&self) -> ChunkId {
        self.chunk
    }

    fn dtype(&self) -> marsc_runtime::DType {
        self.builder.chunks.step(self.step).dtype
    }

    fn tensor_shape(&self) -> &[usize] {
        self.builder.chunks.step(self.step).layout.shape()
    }

    fn tileable(&self) -> u32 {
        self.builder.chunks.step(self.step).tileable.0
    }

    fn offset(&mut self) -> Vec<usize> {
        self.builder.offset(self.chunk)
    }

    fn shape(&mut self) -> Vec<usize> {
        self.builder.shape(self.chunk)
    }

    fn first_axis(&mut self) -> (usize, usize) {
        self.builder.first_axis(self.chunk)
    }

    fn shared(&mut self) -> &mut CreationShared {
        &mut self.builder.shared[self.step.index()].creation
    }

    fn readers(&mut self) -> &mut SharedReaders {
        &mut self.builder.shared_readers
    }
}

impl ReduceSite for FamilySite<'_, '_> {
    fn only_input(&self) -> Result<ChunkId, InternalError> {
        self.builder
            .only_input(self.chunk)
            .map_err(|message| InternalError::new("plan", message))
    }

    fn offset(&mut self, chunk: ChunkId) -> Vec<usize> {
        self.builder.offset(chunk)
    }

    fn shared(&mut self) -> &mut ReductionShared {
        &mut self.builder.shared[self.step.index()].reduction
    }
}

impl ShapeSite for FamilySite<'_, '_> {
    fn shape(&mut self) -> Vec<usize> {
        self.builder.shape(self.chunk)
    }

    fn shared(&mut self) -> &mut ShapeShared {
        &mut self.builder.shared[self.step.index()].shape
    }
}

impl SortSite for FamilySite<'_, '_> {
    fn offset(&mut self) -> Vec<usize> {
        self.builder.chunks.chunk_offset(self.chunk)
    }
}

fn slice_items(graph: &ChunkGraph, chunk: ChunkId) -> Result<Vec<SliceItem>, String> {
    let items = graph
        .slice_items(chunk)
        .map_err(|message| format!("internal error: {message}"))?;
    Ok(items
        .into_iter()
        .map(|item| match item {
            LocalIndexItem::Index(index) => SliceItem::Index(index),
            LocalIndexItem::Range { start, step, len } => SliceItem::Range { start, step, len },
            LocalIndexItem::NewAxis => SliceItem::NewAxis,
        })
        .collect())
}

/// A printed tensor's corners: the regions [`corner_pieces`] names, one per input.
fn corners(graph: &ChunkGraph, chunk: ChunkId) -> Result<Kernel, String> {
    let whole = graph
        .step_of(chunk)
        .inputs
        .first()
        .ok_or_else(|| format!("internal error: corners {chunk} read no tensor"))?;
    let pieces = corner_pieces(&graph.step(*whole).layout)
        .into_iter()
        .map(|piece| AssemblePiece {
            region: piece.region,
            at: piece.at,
        })
        .collect();
    Ok(Kernel::Assemble {
        shape: graph.chunk_shape(chunk),
        pieces,
    })
}

/// Each input's overlap with the chunk, placed relative to the chunk's offset.
fn assemble(graph: &ChunkGraph, chunk: ChunkId) -> Kernel {
    let out_offset = graph.chunk_offset(chunk);
    let pieces = graph
        .assemble_pieces(chunk)
        .into_iter()
        .map(|piece| {
            let in_offset = graph.chunk_offset(piece.input);
            let at = (0..out_offset.len())
                .map(|axis| in_offset[axis] + piece.region[axis].start - out_offset[axis])
                .collect();
            AssemblePiece {
                region: piece.region,
                at,
            }
        })
        .collect();
    Kernel::Assemble {
        shape: graph.chunk_shape(chunk),
        pieces,
    }
}
