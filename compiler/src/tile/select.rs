//! Tiling of selection by a boolean mask: a count chunk per mask block
//! (`BlockCounts`), and `Compress`, whose chunk for each block that selects anything
//! reads that block of x and of the mask. Lowering has already chunked both alike
//! (x along the mask's first axis as the mask, one chunk on the mask's other axes)
//! and knows each block's count from a stage, so the output's chunking is exact.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::tileable::{TileableId, TileableNode};

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
}
