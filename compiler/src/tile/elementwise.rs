//! Element-wise ops with broadcasting (the family of `ops::elementwise`: ufuncs,
//! `where`, `astype`). Output chunk g reads, from each operand, the chunk covering
//! the same region. Operands chunked differently from the output (whose nsplits
//! inference made the common refinement of theirs) are first rechunked to it — a
//! split-only rechunk, one piece per new chunk. Broadcast axes (length 1 against a longer axis) are left alone:
//! every output chunk reads the operand's single chunk there.

use super::grid_map::GridMap;
use super::{TileError, TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
use crate::ops::ElementwiseOp;
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_elementwise(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: ElementwiseOp,
    ) -> TileResult<StepId> {
        let layout = Layout::new(node.nsplits.clone());
        let grid = layout.grid();
        let mut inputs = Vec::with_capacity(node.inputs.len());
        for position in 0..node.inputs.len() {
            let (step, map) = self.aligned_operand(node, position, &grid)?;
            inputs.push((step, map));
        }
        self.add_mapped(ChunkOp::Elementwise(op), id, node.dtype, layout, &inputs)
    }

    /// Operand `position` of `node` chunked like the output (except on broadcast axes)
    /// and the map from output chunks to its chunks. The operand's axes align with the
    /// output's last axes, as in NumPy broadcasting.
    pub(super) fn aligned_operand(
        &mut self,
        node: &TileableNode,
        position: usize,
        out_grid: &[usize],
    ) -> TileResult<(StepId, GridMap)> {
        let step = self.input(node, position);
        let in_layout = self.layout(step);
        let in_shape = in_layout.shape().to_vec();
        let shift = node
            .shape
            .len()
            .checked_sub(in_shape.len())
            .ok_or_else(|| {
                TileError(format!(
                    "internal: operand {position} has more axes than its result"
                ))
            })?;
        let broadcast: Vec<bool> = (0..in_shape.len())
            .map(|axis| in_shape[axis] == 1 && node.shape[axis + shift] != 1)
            .collect();
        let target: Vec<Vec<usize>> = (0..in_shape.len())
            .map(|axis| {
                if broadcast[axis] {
                    in_layout.nsplits()[axis].clone()
                } else {
                    node.nsplits[axis + shift].clone()
                }
            })
            .collect();
        let step = self.ensure_nsplits(step, &target, node.inputs[position])?;
        let strides = self.layout(step).grid_strides();
        let mut map = GridMap::constant(out_grid, 0);
        for axis in 0..in_shape.len() {
            if !broadcast[axis] {
                map.follow(axis + shift, strides[axis]);
            }
        }
        Ok((step, map))
    }
}
