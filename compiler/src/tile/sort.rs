//! Tiling of sorting (`lower/sort.rs` plans a distributed sort's stages): `Sort`
//! sorts each chunk on its own; `SearchBlocks` has one chunk per pair of a chunk of
//! the sorted `a` and a chunk of `v`; `MergeSorted`'s chunk `j` reads the pieces
//! lowering listed for it (and, for an argsort, the same pieces of the positions).

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_sort(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axis: usize,
        arg: bool,
    ) -> TileResult<StepId> {
        let a = self.input(node, 0);
        let first = self.out.step(a).first_chunk.0;
        let strides = self.layout(a).grid_strides();
        self.add_listed(
            ChunkOp::Sort { axis, arg },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![a],
            |position, inputs| {
                let index: usize = position.iter().zip(&strides).map(|(p, s)| p * s).sum();
                inputs.push(ChunkId(first + index as u32));
            },
        )
    }

    pub(super) fn tile_bucket(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        arg: bool,
    ) -> TileResult<StepId> {
        let (x, pivots) = (self.input(node, 0), self.input(node, 1));
        let (x_first, pivots_first) = (
            self.out.step(x).first_chunk.0,
            self.out.step(pivots).first_chunk.0,
        );
        self.add_listed(
            ChunkOp::Bucket { arg },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![x, pivots],
            |position, inputs| {
                inputs.push(ChunkId(x_first + position[0] as u32));
                inputs.push(ChunkId(pivots_first));
            },
        )
    }

    pub(super) fn tile_search_blocks(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        right: bool,
    ) -> TileResult<StepId> {
        let (a, v) = (self.input(node, 0), self.input(node, 1));
        let (a_first, v_first) = (
            self.out.step(a).first_chunk.0,
            self.out.step(v).first_chunk.0,
        );
        let v_strides = self.layout(v).grid_strides();
        self.add_listed(
            ChunkOp::SearchBlocks { right },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            vec![a, v],
            |position, inputs| {
                inputs.push(ChunkId(a_first + position[0] as u32));
                let index: usize = position[1..]
                    .iter()
                    .zip(&v_strides)
                    .map(|(p, s)| p * s)
                    .sum();
                inputs.push(ChunkId(v_first + index as u32));
            },
        )
    }

    pub(super) fn tile_merge_sorted(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        arg: bool,
        sources: &[Vec<u32>],
    ) -> TileResult<StepId> {
        let steps: Vec<StepId> = (0..node.inputs.len())
            .map(|i| self.input(node, i))
            .collect();
        let firsts: Vec<u32> = steps
            .iter()
            .map(|&s| self.out.step(s).first_chunk.0)
            .collect();
        self.add_listed(
            ChunkOp::MergeSorted { arg },
            id,
            node.dtype,
            Layout::new(node.nsplits.clone()),
            steps,
            |position, inputs| {
                for &first in &firsts {
                    for &piece in &sources[position[0]] {
                        inputs.push(ChunkId(first + piece));
                    }
                }
            },
        )
    }
}
