//! `cumsum`/`cumprod` as a scan with O(k) chunks for k chunks along the axis (Mars
//! uses O(k²) edges), in the stages `ops::reduction` declares: every chunk but the
//! last reports its total (`ReductionStage::ScanTotal`), a chain of carries
//! accumulates them (`ScanCarry`: carry j = carry j-1 ⊕ total j), and each chunk
//! scans itself continued from the carry before it (`ScanChunk`).
//! Totals and carries are laid out with length 1 per chunk along the axis.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::ops::ReductionStage;
use crate::tileable::{TileableId, TileableNode};
use marsc_runtime::ops::ScanOp;

impl Tiler<'_> {
    pub(super) fn tile_scan(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: ScanOp,
        axis: usize,
    ) -> TileResult<StepId> {
        let source = self.input(node, 0);
        let layout = self.layout(source).clone();
        let k = layout.chunks_along(axis);
        let strides = layout.grid_strides();
        let first_source = self.out.step(source).first_chunk.0;
        let carries = if k > 1 {
            Some(self.scan_carries(source, id, node, op, axis)?)
        } else {
            None
        };
        let carry_first = carries.map(|s| self.out.step(s).first_chunk.0);
        let carry_strides = carries.map(|s| self.layout(s).grid_strides());
        let mut input_steps = vec![source];
        input_steps.extend(carries);
        let scan = ChunkOp::Reduce(ReductionStage::ScanChunk { op, axis });
        self.add_listed(
            scan,
            id,
            node.dtype,
            layout,
            input_steps,
            |position, inputs| {
                let index: usize = position.iter().zip(&strides).map(|(p, s)| p * s).sum();
                inputs.push(ChunkId(first_source + index as u32));
                if let (Some(first), Some(strides)) = (carry_first, &carry_strides) {
                    if position[axis] > 0 {
                        // The carry into chunk j is carry j-1.
                        let carry: usize = position
                            .iter()
                            .zip(strides)
                            .enumerate()
                            .map(|(a, (p, s))| if a == axis { (p - 1) * s } else { p * s })
                            .sum();
                        inputs.push(ChunkId(first + carry as u32));
                    }
                }
            },
        )
    }

    /// The totals of the first k-1 chunks along the axis and the carry chain over them.
    fn scan_carries(
        &mut self,
        source: StepId,
        id: TileableId,
        node: &TileableNode,
        op: ScanOp,
        axis: usize,
    ) -> TileResult<StepId> {
        let layout = self.layout(source).clone();
        let k = layout.chunks_along(axis);
        let mut nsplits = layout.nsplits().to_vec();
        nsplits[axis] = vec![1; k - 1];
        let partial = Layout::new(nsplits);
        let strides = layout.grid_strides();
        let first_source = self.out.step(source).first_chunk.0;
        let total = ChunkOp::Reduce(ReductionStage::ScanTotal { op, axis });
        let totals = self.add_listed(
            total,
            id,
            node.dtype,
            partial.clone(),
            vec![source],
            |position, inputs| {
                let index: usize = position.iter().zip(&strides).map(|(p, s)| p * s).sum();
                inputs.push(ChunkId(first_source + index as u32));
            },
        )?;
        let first_total = self.out.step(totals).first_chunk.0;
        let partial_strides = partial.grid_strides();
        // The carry step's own chunks come right after the totals.
        let first_carry = first_total + self.out.step(totals).num_chunks;
        let carry = ChunkOp::Reduce(ReductionStage::ScanCarry { op, axis });
        self.add_listed(
            carry,
            id,
            node.dtype,
            partial,
            vec![totals],
            |position, inputs| {
                let index: usize = position
                    .iter()
                    .zip(&partial_strides)
                    .map(|(p, s)| p * s)
                    .sum();
                if position[axis] > 0 {
                    inputs.push(ChunkId(
                        first_carry + (index - partial_strides[axis]) as u32,
                    ));
                }
                inputs.push(ChunkId(first_total + index as u32));
            },
        )
    }
}
