//! Tiling of `bincount` and `histogram`'s per-chunk counts (`TileOp::BinCounts`):
//! chunk `i` of the `(x chunks, bins)` result is the count row of x's chunk `i` (and
//! of the weights' chunk `i`, chunked alike by lowering); lowering finishes the
//! count with an ordinary sum tree over axis 0.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::tileable::{TileableId, TileableNode};
use marsc_runtime::kernels::histogram::Binning;
use std::sync::Arc;

impl Tiler<'_> {
    pub(super) fn tile_bin_counts(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        binning: &Arc<Binning>,
    ) -> TileResult<StepId> {
        let steps: Vec<StepId> = (0..node.inputs.len())
            .map(|i| self.input(node, i))
            .collect();
        let firsts: Vec<u32> = steps
            .iter()
            .map(|&step| self.out.step(step).first_chunk.0)
            .collect();
        self.add_listed(
            ChunkOp::BinCounts(binning.clone()),
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            steps,
            |position, inputs| {
                inputs.extend(
                    firsts
                        .iter()
                        .map(|&first| ChunkId(first + position[0] as u32)),
                )
            },
        )
    }
}
