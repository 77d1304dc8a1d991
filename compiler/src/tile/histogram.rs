//! Tiling of `bincount` and `histogram`'s per-chunk counts (`TileOp::BinCounts`):
//! chunk `i` of the `(x chunks, bins)` result is the count row of x's chunk `i` (and
//! of the weights' chunk `i`, chunked alike by lowering); lowering finishes the
//! count with an ordinary sum tree over axis 0.

use super::grid_map::GridMap;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
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
        let layout = Layout::new(node.nsplits.clone());
        // Row i reads chunk i of x (and of the weights).
        let inputs: Vec<(StepId, GridMap)> = (0..node.inputs.len())
            .map(|i| {
                let mut map = GridMap::constant(&layout.grid(), 0);
                map.follow(0, 1);
                (self.input(node, i), map)
            })
            .collect();
        let op = ChunkOp::BinCounts(binning.clone());
        self.add_mapped(op, id, node.dtype, layout, &inputs)
    }
}
