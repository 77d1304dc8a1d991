//! Shape relabels that move no data between chunks: `transpose`, `expand_dims`,
//! `squeeze`, `broadcast_to` (each chunk maps to one input chunk and applies the
//! relabel locally) and `concatenate` (after the other axes are unified, each output
//! chunk *is* an input chunk: `Alias`).

use super::grid_map::GridMap;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::ops::ShapeOp;
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    /// A shape op's rule: a relabel here, a reshape in `reshape.rs`.
    pub(super) fn tile_shape(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: &ShapeOp,
    ) -> TileResult<StepId> {
        match op {
            ShapeOp::Transpose { axes } => self.tile_transpose(id, node, axes),
            ShapeOp::ExpandDims { axes } => self.tile_expand_dims(id, node, axes),
            ShapeOp::Squeeze { axes } => self.tile_squeeze(id, node, axes),
            ShapeOp::BroadcastTo => self.tile_broadcast_to(id, node),
            ShapeOp::Reshape => self.tile_reshape(id, node),
        }
    }

    fn tile_transpose(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axes: &[usize],
    ) -> TileResult<StepId> {
        let mut target = vec![Vec::new(); axes.len()];
        for (out_axis, &in_axis) in axes.iter().enumerate() {
            target[in_axis] = node.nsplits[out_axis].clone();
        }
        let op = ChunkOp::Shape(ShapeOp::Transpose {
            axes: axes.to_vec(),
        });
        let in_axes: Vec<Option<usize>> = axes.iter().map(|&a| Some(a)).collect();
        self.relabel(id, node, op, target, &in_axes)
    }

    fn tile_expand_dims(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axes: &[usize],
    ) -> TileResult<StepId> {
        let mut in_axes = Vec::with_capacity(node.shape.len());
        let mut target = Vec::new();
        for out_axis in 0..node.shape.len() {
            if axes.contains(&out_axis) {
                in_axes.push(None);
            } else {
                in_axes.push(Some(target.len()));
                target.push(node.nsplits[out_axis].clone());
            }
        }
        let op = ChunkOp::Shape(ShapeOp::ExpandDims {
            axes: axes.to_vec(),
        });
        self.relabel(id, node, op, target, &in_axes)
    }

    fn tile_squeeze(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axes: &[usize],
    ) -> TileResult<StepId> {
        let in_ndim = node.shape.len() + axes.len();
        let mut in_axes = Vec::with_capacity(node.shape.len());
        let mut target = Vec::with_capacity(in_ndim);
        for in_axis in 0..in_ndim {
            if axes.contains(&in_axis) {
                target.push(vec![1]);
            } else {
                target.push(node.nsplits[in_axes.len()].clone());
                in_axes.push(Some(in_axis));
            }
        }
        let op = ChunkOp::Shape(ShapeOp::Squeeze {
            axes: axes.to_vec(),
        });
        self.relabel(id, node, op, target, &in_axes)
    }

    fn tile_broadcast_to(&mut self, id: TileableId, node: &TileableNode) -> TileResult<StepId> {
        let layout = Layout::new(node.nsplits.clone());
        let (step, map) = self.aligned_operand(node, 0, &layout.grid())?;
        self.add_mapped(
            ChunkOp::Shape(ShapeOp::BroadcastTo),
            id,
            node.dtype,
            layout,
            &[(step, map)],
        )
    }

    /// The input rechunked to `target`, then one chunk per output grid position
    /// reading the input chunk at the matching coordinates: output axis i follows
    /// input axis `in_axes[i]` (`None`: a new length-1 axis).
    fn relabel(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        op: ChunkOp,
        target: Vec<Vec<usize>>,
        in_axes: &[Option<usize>],
    ) -> TileResult<StepId> {
        let source = self.ensure_nsplits(self.input(node, 0), &target, node.inputs[0])?;
        let strides = self.layout(source).grid_strides();
        let layout = Layout::new(node.nsplits.clone());
        let mut map = GridMap::constant(&layout.grid(), 0);
        for (out_axis, in_axis) in in_axes.iter().enumerate() {
            if let Some(in_axis) = in_axis {
                map.follow(out_axis, strides[*in_axis]);
            }
        }
        self.add_mapped(op, id, node.dtype, layout, &[(source, map)])
    }

    pub(super) fn tile_concatenate(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        axis: usize,
    ) -> TileResult<StepId> {
        let mut sources = Vec::with_capacity(node.inputs.len());
        // Which (operand, chunk along the axis) each output chunk along the axis is.
        let mut along: Vec<(usize, usize)> = Vec::new();
        let mut splits: Vec<usize> = Vec::new();
        for position in 0..node.inputs.len() {
            let step = self.input(node, position);
            let mut target = node.nsplits.clone();
            target[axis] = self.layout(step).nsplits()[axis].clone();
            for (j, &size) in target[axis].iter().enumerate() {
                if size > 0 {
                    along.push((position, j));
                    splits.push(size);
                }
            }
            sources.push(self.ensure_nsplits(step, &target, node.inputs[position])?);
        }
        if along.is_empty() {
            along.push((0, 0));
            splits.push(0);
        }
        let mut nsplits = node.nsplits.clone();
        nsplits[axis] = splits;
        let layout = Layout::new(nsplits);
        let firsts: Vec<u32> = sources
            .iter()
            .map(|&s| self.out.step(s).first_chunk.0)
            .collect();
        let strides: Vec<Vec<usize>> = sources
            .iter()
            .map(|&s| self.layout(s).grid_strides())
            .collect();
        self.add_listed(
            ChunkOp::Alias,
            id,
            node.dtype,
            layout,
            sources,
            |position, inputs| {
                let (operand, j) = along[position[axis]];
                let index: usize = position
                    .iter()
                    .zip(&strides[operand])
                    .enumerate()
                    .map(|(a, (p, s))| if a == axis { j * s } else { p * s })
                    .sum();
                inputs.push(ChunkId(firsts[operand] + index as u32));
            },
        )
    }
}
