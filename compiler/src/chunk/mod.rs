//! The ChunkGraph IR: every tensor split into chunks, every operation into chunk
//! operations. Built by [`crate::tile`].
//!
//! Records are small and flat (MEP 0002). A [`Step`] is one tensor-shaped set of
//! chunks produced by one chunk operation: it holds the op and its parameters, the
//! [`Layout`] (shape, nsplits, offsets) and a stable key, once. A chunk is a 16-byte
//! [`ChunkNode`]: its step, its index in the step (C order of the step's grid) and a
//! window into one shared edge list. Its shape, offset and key are derived from its
//! step and index on demand. Chunk ids and step ids are both in topological order, and
//! the chunks of a step are contiguous.

pub mod corners;
pub mod display;
pub mod dot;
pub mod key;
pub mod layout;
pub mod local;
pub mod op;
pub mod verify;

pub use key::ChunkKey;
pub use layout::Layout;
pub use local::{LocalIndexItem, Piece};
pub use op::ChunkOp;
pub use verify::verify;

use crate::tileable::TileableId;
use marsc_runtime::DType;
use std::ops::Range;
use std::path::PathBuf;

/// Identifies a chunk; ids are dense and in topological order. The runtime's plan
/// numbers its chunks the same way, so the compiler uses the runtime's type.
pub use marsc_runtime::plan::ChunkId;

/// Identifies a step; ids are dense and in topological order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepId(pub u32);

impl StepId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One chunk: which step it belongs to, where in the step, and its inputs as the
/// range `inputs_start..inputs_start + inputs_len` of the graph's shared edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkNode {
    pub step: StepId,
    pub index: u32,
    pub inputs_start: u32,
    pub inputs_len: u32,
}

/// One chunk operation applied over a whole grid of chunks.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub op: ChunkOp,
    /// The tensor whose values (or partial results) this step computes.
    pub tileable: TileableId,
    /// The element dtype of the chunks' data; for reduction states, the dtype being
    /// reduced; for save steps, the saved tensor's.
    pub dtype: DType,
    pub layout: Layout,
    /// The steps whose chunks this step's chunks read, in operand order.
    pub inputs: Vec<StepId>,
    pub key: u64,
    /// The step's first chunk; its chunks are `first_chunk..first_chunk + len`.
    pub first_chunk: ChunkId,
    pub num_chunks: u32,
}

impl Step {
    pub fn chunk_ids(&self) -> impl ExactSizeIterator<Item = ChunkId> {
        (self.first_chunk.0..self.first_chunk.0 + self.num_chunks).map(ChunkId)
    }

    /// The id of the chunk at `index` in this step.
    pub fn chunk(&self, index: usize) -> ChunkId {
        ChunkId(self.first_chunk.0 + index as u32)
    }
}

/// What the script shows or keeps, in program order.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkOutput {
    /// A `print`: the runtime fetches every chunk of each tensor item's step and
    /// assembles them by their offsets.
    Print {
        items: Vec<PrintItem>,
        sep: String,
        end: String,
    },
    /// A `save`: done when the commit step's single chunk has run.
    Save { path: PathBuf, commit: StepId },
}

/// One argument of a `print`.
#[derive(Clone, Debug, PartialEq)]
pub enum PrintItem {
    Text(String),
    Tensor(StepId),
    /// A tensor NumPy prints summarized (`[1. 1. 1. ... 1. 1. 1.]`): `corners` (a
    /// [`ChunkOp::Corners`] step of one chunk) holds the positions printed, read
    /// from the chunks of `whole` that hold them, so nothing else is computed.
    Summary {
        whole: StepId,
        corners: StepId,
    },
}

impl PrintItem {
    /// The step whose chunks the print shows (a summary's corners), if a tensor.
    pub fn printed_step(&self) -> Option<StepId> {
        match self {
            PrintItem::Text(_) => None,
            PrintItem::Tensor(step) | PrintItem::Summary { corners: step, .. } => Some(*step),
        }
    }

    /// The step of the tensor printed (a summary's whole tensor), if a tensor.
    pub fn tensor_step(&self) -> Option<StepId> {
        match self {
            PrintItem::Text(_) => None,
            PrintItem::Tensor(step) | PrintItem::Summary { whole: step, .. } => Some(*step),
        }
    }
}

/// The whole program at chunk level.
#[derive(Clone, Debug, Default)]
pub struct ChunkGraph {
    steps: Vec<Step>,
    chunks: Vec<ChunkNode>,
    edges: Vec<ChunkId>,
    pub outputs: Vec<ChunkOutput>,
    /// The step holding each tileable's final chunks (indexed by `TileableId`).
    pub tileable_steps: Vec<Option<StepId>>,
}

impl ChunkGraph {
    pub fn new() -> ChunkGraph {
        ChunkGraph::default()
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn step(&self, id: StepId) -> &Step {
        &self.steps[id.index()]
    }

    pub fn step_ids(&self) -> impl ExactSizeIterator<Item = StepId> {
        (0..self.steps.len() as u32).map(StepId)
    }

    pub fn num_chunks(&self) -> usize {
        self.chunks.len()
    }

    pub fn num_edges(&self) -> usize {
        self.edges.len()
    }

    pub fn chunk(&self, id: ChunkId) -> &ChunkNode {
        &self.chunks[id.index()]
    }

    pub fn chunk_ids(&self) -> impl ExactSizeIterator<Item = ChunkId> {
        (0..self.chunks.len() as u32).map(ChunkId)
    }

    /// The chunk's inputs, in the order its op documents.
    pub fn inputs(&self, id: ChunkId) -> &[ChunkId] {
        let node = &self.chunks[id.index()];
        let start = node.inputs_start as usize;
        &self.edges[start..start + node.inputs_len as usize]
    }

    /// The step a chunk belongs to.
    pub fn step_of(&self, id: ChunkId) -> &Step {
        &self.steps[self.chunks[id.index()].step.index()]
    }

    pub fn chunk_key(&self, id: ChunkId) -> ChunkKey {
        let node = &self.chunks[id.index()];
        ChunkKey {
            step: self.steps[node.step.index()].key,
            index: node.index,
        }
    }

    /// The chunk's region in its step's layout: offset and shape.
    pub fn chunk_offset(&self, id: ChunkId) -> Vec<usize> {
        let node = &self.chunks[id.index()];
        self.steps[node.step.index()]
            .layout
            .chunk_offset(node.index as usize)
    }

    pub fn chunk_shape(&self, id: ChunkId) -> Vec<usize> {
        let node = &self.chunks[id.index()];
        self.steps[node.step.index()]
            .layout
            .chunk_shape(node.index as usize)
    }

    /// The shape of the chunk's data: its layout shape, without the leading
    /// partial-product axis of unfinished matmul steps.
    pub fn data_shape(&self, id: ChunkId) -> Vec<usize> {
        let mut shape = self.chunk_shape(id);
        if self.step_of(id).op.has_partial_axis() {
            shape.remove(0);
        }
        shape
    }

    /// The number of elements of the chunk's data ([`Self::data_shape`]'s product),
    /// without allocating a shape.
    pub fn data_len(&self, id: ChunkId) -> usize {
        let node = &self.chunks[id.index()];
        let step = &self.steps[node.step.index()];
        let first_axis = usize::from(step.op.has_partial_axis());
        step.layout.chunk_len_from(node.index as usize, first_axis)
    }

    /// Approximate heap bytes held by the graph (records, edges, layouts), for the
    /// bytes-per-chunk figure.
    pub fn heap_bytes(&self) -> usize {
        let layouts: usize = self
            .steps
            .iter()
            .map(|step| {
                let splits: usize = step.layout.nsplits().iter().map(Vec::len).sum();
                // nsplits + offsets (one more per axis) + shape, all usize.
                (2 * splits + 2 * step.layout.ndim()) * std::mem::size_of::<usize>()
                    + step.inputs.len() * std::mem::size_of::<StepId>()
            })
            .sum();
        self.steps.capacity() * std::mem::size_of::<Step>()
            + self.chunks.capacity() * std::mem::size_of::<ChunkNode>()
            + self.edges.capacity() * std::mem::size_of::<ChunkId>()
            + layouts
    }

    /// Starts a step; its chunks must then be added in index order with
    /// [`ChunkGraph::push_chunk`]. Fails when the graph would outgrow 32-bit ids.
    pub fn add_step(
        &mut self,
        op: ChunkOp,
        tileable: TileableId,
        dtype: DType,
        layout: Layout,
        inputs: Vec<StepId>,
    ) -> Result<StepId, TooManyChunks> {
        let count = layout.num_chunks();
        let total = self.chunks.len() as u128 + count;
        if total > u32::MAX as u128 || self.steps.len() >= u32::MAX as usize {
            return Err(TooManyChunks { requested: total });
        }
        let input_keys: Vec<u64> = inputs.iter().map(|&s| self.steps[s.index()].key).collect();
        // A cached tensor keeps the key its chunks are cached under.
        let key = (op.own_key()).unwrap_or_else(|| key::step_key(&op, dtype, &layout, &input_keys));
        let id = StepId(self.steps.len() as u32);
        self.chunks.reserve(count as usize);
        self.steps.push(Step {
            op,
            tileable,
            dtype,
            layout,
            inputs,
            key,
            first_chunk: ChunkId(self.chunks.len() as u32),
            num_chunks: count as u32,
        });
        Ok(id)
    }

    /// Appends the next chunk of the last step, with its inputs.
    pub fn push_chunk(&mut self, inputs: &[ChunkId]) {
        let step = StepId(self.steps.len() as u32 - 1);
        let first = self.steps[step.index()].first_chunk.0;
        let index = self.chunks.len() as u32 - first;
        debug_assert!(index < self.steps[step.index()].num_chunks);
        self.chunks.push(ChunkNode {
            step,
            index,
            inputs_start: self.edges.len() as u32,
            inputs_len: inputs.len() as u32,
        });
        self.edges.extend_from_slice(inputs);
    }

    /// Reserves room for `additional` more edges.
    pub fn reserve_edges(&mut self, additional: usize) {
        self.edges.reserve(additional);
    }

    /// Whether every started step has all its chunks.
    pub fn is_complete(&self) -> bool {
        self.steps
            .last()
            .is_none_or(|s| s.first_chunk.index() + s.num_chunks as usize == self.chunks.len())
    }

    /// The chunk id range of a step.
    pub fn chunk_range(&self, id: StepId) -> Range<u32> {
        let step = &self.steps[id.index()];
        step.first_chunk.0..step.first_chunk.0 + step.num_chunks
    }
}

/// The program needs more chunks than 32-bit ids can number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyChunks {
    pub requested: u128,
}

impl std::fmt::Display for StepId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "s{}", self.0)
    }
}
