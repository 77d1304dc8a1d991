//! Tiling of selection by a boolean mask and by integer indices. A mask: a count
//! chunk per mask block (`BlockCounts`), and `Compress`, whose chunk for each block
//! that selects anything reads that block of x and of the mask (lowering has chunked
//! both alike and knows each block's count from a stage, so the output's chunking is
//! exact). Indices: a row of per-block counts per index chunk (`IndexBlocks`), and
//! `Gather`, whose chunk for each index chunk reads that chunk and only the blocks
//! of x its indices fall in (known from a stage).

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::tileable::{TileOp, TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_block_counts(
        &mut self,
        id: TileableId,
        node: &TileableNode,
    ) -> TileResult<StepId> {
        let mask = self.input(node, 0);
        let first = self.out.step(mask).first_chunk.0;
        let strides = self.layout(mask).grid_strides();
        let stride = strides.first().copied().unwrap_or(1);
        self.add_listed(
            ChunkOp::CountTrue,
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![mask],
            |position, inputs| inputs.push(ChunkId(first + (position[0] * stride) as u32)),
        )
    }

    pub(super) fn tile_compress(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axis: usize,
        counts: &[usize],
    ) -> TileResult<StepId> {
        let (x, mask) = (self.input(node, 0), self.input(node, 1));
        // The block of x and mask each output chunk along `axis` reads.
        let mut blocks: Vec<usize> = (0..counts.len()).filter(|&b| counts[b] > 0).collect();
        if blocks.is_empty() {
            blocks.push(0);
        }
        let mask_ndim = self.layout(mask).ndim();
        let (x_first, mask_first) = (
            self.out.step(x).first_chunk.0,
            self.out.step(mask).first_chunk.0,
        );
        let x_strides = self.layout(x).grid_strides();
        let mask_stride = self.layout(mask).grid_strides()[0];
        self.add_listed(
            ChunkOp::Compress { axis },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![x, mask],
            |position, inputs| {
                let block = blocks[position[axis]];
                // Output axes before `axis` are x's; after it, x's axes after the mask's.
                let x_index: usize = position[..axis]
                    .iter()
                    .zip(&x_strides)
                    .map(|(p, s)| p * s)
                    .sum::<usize>()
                    + block * x_strides[axis]
                    + position[axis + 1..]
                        .iter()
                        .zip(&x_strides[axis + mask_ndim..])
                        .map(|(p, s)| p * s)
                        .sum::<usize>();
                inputs.push(ChunkId(x_first + x_index as u32));
                inputs.push(ChunkId(mask_first + (block * mask_stride) as u32));
            },
        )
    }

    pub(super) fn tile_index_blocks(
        &mut self,
        id: TileableId,
        node: &TileableNode,
    ) -> TileResult<StepId> {
        let idx = self.input(node, 0);
        let first = self.out.step(idx).first_chunk.0;
        let TileOp::IndexBlocks { splits } = &node.op else {
            unreachable!("tile_index_blocks is called for IndexBlocks nodes only")
        };
        self.add_listed(
            ChunkOp::IndexBlocks {
                splits: splits.clone(),
            },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![idx],
            |position, inputs| inputs.push(ChunkId(first + position[0] as u32)),
        )
    }

    pub(super) fn tile_gather(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axis: usize,
        touched: &[Vec<u32>],
    ) -> TileResult<StepId> {
        let (x, idx) = (self.input(node, 0), self.input(node, 1));
        let (x_first, idx_first) = (
            self.out.step(x).first_chunk.0,
            self.out.step(idx).first_chunk.0,
        );
        let x_strides = self.layout(x).grid_strides();
        self.add_listed(
            ChunkOp::Gather { axis },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![idx, x],
            |position, inputs| {
                let i = position[axis];
                inputs.push(ChunkId(idx_first + i as u32));
                let off_axis: usize = position
                    .iter()
                    .zip(&x_strides)
                    .enumerate()
                    .filter(|&(a, _)| a != axis)
                    .map(|(_, (p, s))| p * s)
                    .sum();
                for &b in &touched[i] {
                    inputs.push(ChunkId(
                        x_first + (off_axis + b as usize * x_strides[axis]) as u32,
                    ));
                }
            },
        )
    }
}
