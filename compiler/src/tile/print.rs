//! Tiling a printed tensor. NumPy prints an array of more than 1000 elements
//! summarized, showing only the first and last three positions of each long axis;
//! such a tensor is printed from a [`ChunkOp::Corners`] step, one small chunk that
//! reads just the chunks holding those positions, so the rest of the tensor is never
//! computed (and never held whole): `print(mt.ones(10**10))` computes two chunks.

use super::{TileResult, Tiler};
use crate::chunk::corners::corner_pieces;
use crate::chunk::{ChunkId, ChunkOp, Layout, PrintItem, StepId};
use crate::tileable::TileableId;
use marsc_runtime::format::summary_shape;
use std::collections::HashMap;

impl Tiler<'_> {
    /// The print item of tensor `id`: its step, or the corners of it when printing
    /// elides part of it (`corners` shares them between prints of one tensor).
    pub(super) fn tile_printed(
        &mut self,
        id: TileableId,
        corners: &mut HashMap<StepId, StepId>,
    ) -> TileResult<PrintItem> {
        let whole = self.steps_of[id.index()];
        let layout = self.layout(whole).clone();
        // A stage fetches block counts whole, however many blocks there are.
        let fetched_whole = match &self.source.node(id).op {
            crate::tileable::TileOp::BlockCounts
            | crate::tileable::TileOp::IndexBlocks { .. }
            | crate::tileable::TileOp::BinCounts(_) => true,
            crate::tileable::TileOp::Sort(op) => op.fetched_whole(),
            _ => false,
        };
        let Some(shape) = summary_shape(layout.shape()).filter(|_| !fetched_whole) else {
            return Ok(PrintItem::Tensor(whole));
        };
        if let Some(&step) = corners.get(&whole) {
            return Ok(PrintItem::Summary {
                whole,
                corners: step,
            });
        }
        let whole_step = self.out.step(whole);
        let inputs: Vec<ChunkId> = corner_pieces(&layout)
            .iter()
            .map(|piece| whole_step.chunk(piece.chunk))
            .collect();
        let dtype = self.out.step(whole).dtype;
        self.out.reserve_edges(inputs.len());
        let step = self.add_listed(
            ChunkOp::Corners,
            id,
            dtype,
            Layout::single(&shape),
            vec![whole],
            |_, chunk_inputs| chunk_inputs.extend_from_slice(&inputs),
        )?;
        corners.insert(whole, step);
        Ok(PrintItem::Summary {
            whole,
            corners: step,
        })
    }
}
