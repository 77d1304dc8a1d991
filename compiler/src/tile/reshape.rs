//! `reshape`/`ravel` chunk to chunk. The shape family's `reshape_plan` gives a chunking of
//! the input and of the output whose chunks correspond one to one in C order of their
//! grids (Dask's `reshape_rechunk`): the input is rechunked to the first and each
//! output chunk reshapes one input chunk. The correspondence is checked exactly but
//! cheaply — two boxes of C-ordered tensors hold the same elements in the same order
//! iff their canonical (base, [(length, stride)]) forms agree — and if it ever fails
//! the rule falls back to a single chunk, which is always correct.

use super::{TileResult, Tiler};
use crate::chunk::{ChunkId, ChunkOp, Layout, StepId};
use crate::ops::shape::reshape_plan;
use crate::ops::ShapeOp;
use crate::tileable::{TileableId, TileableNode};

impl Tiler<'_> {
    pub(super) fn tile_reshape(
        &mut self,
        id: TileableId,
        node: &TileableNode,
    ) -> TileResult<StepId> {
        let source = self.input(node, 0);
        let in_layout = self.layout(source).clone();
        let (in_target, out_nsplits) =
            reshape_plan(in_layout.shape(), in_layout.nsplits(), &node.shape);
        let (in_target, out_layout) = if chunks_correspond(
            &Layout::new(in_target.clone()),
            &Layout::new(out_nsplits.clone()),
        ) && in_target
            .iter()
            .zip(in_layout.shape())
            .all(|(s, &len)| s.iter().sum::<usize>() == len)
            && out_nsplits
                .iter()
                .zip(&node.shape)
                .all(|(s, &len)| s.iter().sum::<usize>() == len)
        {
            (in_target, Layout::new(out_nsplits))
        } else {
            let whole = Layout::single(in_layout.shape());
            (whole.nsplits().to_vec(), Layout::single(&node.shape))
        };
        let source = self.ensure_nsplits(source, &in_target, node.inputs[0])?;
        let first = self.out.step(source).first_chunk.0;
        let mut index = 0u32;
        self.add_listed(
            ChunkOp::Shape(ShapeOp::Reshape),
            id,
            node.dtype,
            out_layout,
            vec![source],
            |_, inputs| {
                inputs.push(ChunkId(first + index));
                index += 1;
            },
        )
    }
}

/// Whether chunk i of `a` and chunk i of `b` hold the same elements of the same flat
/// C-order sequence, for every i.
pub fn chunks_correspond(a: &Layout, b: &Layout) -> bool {
    let size = |l: &Layout| l.shape().iter().product::<usize>();
    if a.num_chunks() != b.num_chunks() || size(a) != size(b) {
        return false;
    }
    let count = a.num_chunks() as usize;
    let (strides_a, strides_b) = (element_strides(a.shape()), element_strides(b.shape()));
    (0..count).all(|i| {
        canonical_box(&a.chunk_offset(i), &a.chunk_shape(i), &strides_a)
            == canonical_box(&b.chunk_offset(i), &b.chunk_shape(i), &strides_b)
    })
}

fn element_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for axis in (0..shape.len().saturating_sub(1)).rev() {
        strides[axis] = strides[axis + 1] * shape[axis + 1];
    }
    strides
}

/// The flat indices a box visits in C order, as (first index, [(count, stride)])
/// with length-1 axes dropped and contiguous axes merged; `None` for an empty box.
fn canonical_box(
    offset: &[usize],
    shape: &[usize],
    strides: &[usize],
) -> Option<(usize, Vec<(usize, usize)>)> {
    if shape.contains(&0) {
        return None;
    }
    let base = offset.iter().zip(strides).map(|(o, s)| o * s).sum();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (&count, &stride) in shape.iter().zip(strides) {
        if count == 1 {
            continue;
        }
        match runs.last_mut() {
            Some(last) if last.1 == count * stride => *last = (last.0 * count, stride),
            _ => runs.push((count, stride)),
        }
    }
    Some((base, runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_blocks_ravel_to_runs() {
        // (4, 6) in row blocks of 2 ravels into runs of 12.
        let a = Layout::new(vec![vec![2, 2], vec![6]]);
        let b = Layout::new(vec![vec![12, 12]]);
        assert!(chunks_correspond(&a, &b));
        // Column blocks are not contiguous runs.
        let a = Layout::new(vec![vec![4], vec![3, 3]]);
        assert!(!chunks_correspond(&a, &b));
    }

    #[test]
    fn splitting_an_axis_keeps_whole_rows() {
        // (4, 6) -> (4, 2, 3) with rows in blocks of 2 and columns in blocks of 3.
        let a = Layout::new(vec![vec![2, 2], vec![3, 3]]);
        let b = Layout::new(vec![vec![2, 2], vec![1, 1], vec![3]]);
        assert!(chunks_correspond(&a, &b));
    }
}
