//! Tiling of assignment through an integer index along one axis
//! (`TileOp::Scatter`): each chunk of x keeps its place, and reads x's chunk then,
//! for every index chunk naming a position in its block (known from a stage, in
//! index order), that index chunk and the values' chunk beside it.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_scatter(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axis: usize,
        touched: &[Vec<u32>],
    ) -> TileResult<StepId> {
        let (x, idx, values) = (
            self.input(node, 0),
            self.input(node, 1),
            self.input(node, 2),
        );
        let (x_first, idx_first, values_first) = (
            self.out.step(x).first_chunk.0,
            self.out.step(idx).first_chunk.0,
            self.out.step(values).first_chunk.0,
        );
        let x_strides = self.layout(x).grid_strides();
        let values_strides = self.layout(values).grid_strides();
        self.add_listed(
            ChunkOp::Scatter { axis },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![x, idx, values],
            |position, inputs| {
                let at = |strides: &[usize], along: usize| -> usize {
                    position
                        .iter()
                        .zip(strides)
                        .enumerate()
                        .map(|(a, (p, s))| if a == axis { along * s } else { p * s })
                        .sum()
                };
                inputs.push(ChunkId(x_first + at(&x_strides, position[axis]) as u32));
                for &i in &touched[position[axis]] {
                    inputs.push(ChunkId(idx_first + i));
                    inputs.push(ChunkId(
                        values_first + at(&values_strides, i as usize) as u32,
                    ));
                }
            },
        )
    }
}
