//! Tiling of sorting (`lower/sort.rs` plans a distributed sort's stages): `Sort`
//! sorts each chunk on its own; `SearchBlocks` has one chunk per pair of a chunk of
//! the sorted `a` and a chunk of `v`; `MergeSorted`'s chunk `j` reads the pieces
//! lowering listed for it (and, for an argsort, the same pieces of the positions).

use super::grid_map::GridMap;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::ops::{SortOp, SortStage};
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    /// One step of the op's stage (`ops::sort`), its chunks wired to their inputs.
    pub(super) fn tile_sorting(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: &SortOp,
    ) -> TileResult<StepId> {
        match op {
            SortOp::Sort { axis, arg } => self.tile_sort(id, node, *axis, *arg),
            SortOp::SearchBlocks { right } => self.tile_search_blocks(id, node, *right),
            SortOp::Bucket { arg } => self.tile_bucket(id, node, *arg),
            SortOp::MergeSorted { arg, sources } => self.tile_merge_sorted(id, node, *arg, sources),
        }
    }

    fn tile_sort(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axis: usize,
        arg: bool,
    ) -> TileResult<StepId> {
        let a = self.input(node, 0);
        let map = GridMap::identity(self.layout(a));
        let layout = Layout::new(node.nsplits.clone());
        self.add_mapped(
            ChunkOp::Sort(SortStage::Sort { axis, arg }),
            id,
            node.dtype,
            layout,
            &[(a, map)],
        )
    }

    fn tile_bucket(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        arg: bool,
    ) -> TileResult<StepId> {
        let (x, pivots) = (self.input(node, 0), self.input(node, 1));
        let layout = Layout::new(node.nsplits.clone());
        let x_map = GridMap::identity(self.layout(x));
        // Every chunk reads the one chunk of pivots.
        let pivots_map = GridMap::constant(&layout.grid(), 0);
        let inputs = [(x, x_map), (pivots, pivots_map)];
        self.add_mapped(
            ChunkOp::Sort(SortStage::Bucket { arg }),
            id,
            node.dtype,
            layout,
            &inputs,
        )
    }

    fn tile_search_blocks(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        right: bool,
    ) -> TileResult<StepId> {
        let (a, v) = (self.input(node, 0), self.input(node, 1));
        let layout = Layout::new(node.nsplits.clone());
        // Position (i, J...) reads chunk i of `a` and chunk J of `v`.
        let mut a_map = GridMap::constant(&layout.grid(), 0);
        a_map.follow(0, 1);
        let mut v_map = GridMap::constant(&layout.grid(), 0);
        for (axis, stride) in self.layout(v).grid_strides().into_iter().enumerate() {
            v_map.follow(axis + 1, stride);
        }
        let inputs = [(a, a_map), (v, v_map)];
        self.add_mapped(
            ChunkOp::Sort(SortStage::SearchBlocks { right }),
            id,
            node.dtype,
            layout,
            &inputs,
        )
    }

    fn tile_merge_sorted(
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
            ChunkOp::Sort(SortStage::MergeSorted { arg }),
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
