//! Basic indexing (ints, slices with any step, new axes): each output chunk reads the
//! one input chunk its elements fall in and slices it locally. Along a sliced axis
//! the output is split where the selected positions cross input chunk boundaries, in
//! output order (so reversed for negative steps); input chunks no position falls in
//! are never read.

use super::grid_map::GridMap;
use super::{TileResult, Tiler};
use crate::chunk::{ChunkOp, Layout, StepId};
use crate::tileable::{IndexItem, TileableId, TileableNode};

/// A run of consecutive output elements of a slice that all come from one input chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlicePiece {
    /// The input chunk along the axis.
    pub chunk: usize,
    /// How many output elements it gives.
    pub len: usize,
}

/// The pieces of the slice `start`, `step`, `len` (resolved as `slice.indices` does)
/// over an axis chunked as `splits`, in output order. An empty slice is one empty
/// piece of chunk 0, so the output axis still has its single chunk `[0]`.
pub fn select_slice(splits: &[usize], start: i64, step: i64, len: usize) -> Vec<SlicePiece> {
    let mut ends = Vec::with_capacity(splits.len());
    let mut position = 0i64;
    for &size in splits {
        position += size as i64;
        ends.push(position);
    }
    let mut pieces = Vec::new();
    let mut done = 0usize;
    while done < len && step != 0 {
        let at = start + step * done as i64;
        let chunk = ends.partition_point(|&end| end <= at);
        let Some(&end) = ends.get(chunk) else { break };
        let chunk_start = end - splits[chunk] as i64;
        let available = if step > 0 {
            (end - at + step - 1) / step
        } else {
            (at - chunk_start) / -step + 1
        };
        let count = (available.max(1) as usize).min(len - done);
        pieces.push(SlicePiece { chunk, len: count });
        done += count;
    }
    if pieces.is_empty() {
        pieces.push(SlicePiece { chunk: 0, len: 0 });
    }
    pieces
}

impl Tiler<'_> {
    pub(super) fn tile_index(
        &mut self,
        id: TileableId,
        node: &TileableNode,
        items: &[IndexItem],
    ) -> TileResult<StepId> {
        let source = self.input(node, 0);
        let in_layout = self.layout(source).clone();
        let strides = in_layout.grid_strides();
        let items = complete_items(items, in_layout.shape());
        // Per output axis: the input axis it slices and the input chunk per piece.
        let mut followed: Vec<Option<(usize, Vec<usize>)>> = Vec::new();
        let mut nsplits = Vec::new();
        let mut fixed = Vec::new();
        let mut in_axis = 0;
        for item in &items {
            match *item {
                IndexItem::Int(position) => {
                    fixed.push((in_axis, in_layout.chunk_at(in_axis, position)));
                    in_axis += 1;
                }
                IndexItem::Slice { start, step, len } => {
                    let pieces = select_slice(&in_layout.nsplits()[in_axis], start, step, len);
                    nsplits.push(pieces.iter().map(|p| p.len).collect());
                    followed.push(Some((in_axis, pieces.iter().map(|p| p.chunk).collect())));
                    in_axis += 1;
                }
                IndexItem::NewAxis => {
                    nsplits.push(vec![1]);
                    followed.push(None);
                }
            }
        }
        let layout = Layout::new(nsplits);
        let mut map = GridMap::constant(&layout.grid(), 0);
        for (axis, chunk) in fixed {
            map.add_fixed(strides[axis], chunk);
        }
        for (out_axis, follow) in followed.into_iter().enumerate() {
            if let Some((axis, chunks)) = follow {
                map.set(out_axis, strides[axis], chunks);
            }
        }
        self.add_mapped(
            ChunkOp::Slice { items },
            id,
            node.dtype,
            layout,
            &[(source, map)],
        )
    }
}

/// The items with a full slice for every input axis they leave out (lowering gives
/// one per axis already; this keeps the rule total).
fn complete_items(items: &[IndexItem], shape: &[usize]) -> Vec<IndexItem> {
    let used = items
        .iter()
        .filter(|i| !matches!(i, IndexItem::NewAxis))
        .count();
    let mut all = items.to_vec();
    for &len in shape.iter().skip(used) {
        all.push(IndexItem::Slice {
            start: 0,
            step: 1,
            len,
        });
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(splits: &[usize], start: i64, step: i64, len: usize) -> Vec<(usize, usize)> {
        select_slice(splits, start, step, len)
            .iter()
            .map(|p| (p.chunk, p.len))
            .collect()
    }

    #[test]
    fn positive_steps() {
        // x[1:8] over (3, 3, 3): positions 1..8.
        assert_eq!(pieces(&[3, 3, 3], 1, 1, 7), vec![(0, 2), (1, 3), (2, 2)]);
        // x[::4] over (3, 3, 3): positions 0, 4, 8.
        assert_eq!(pieces(&[3, 3, 3], 0, 4, 3), vec![(0, 1), (1, 1), (2, 1)]);
        // x[2:9:5]: positions 2, 7; chunk 1 is skipped.
        assert_eq!(pieces(&[3, 3, 3], 2, 5, 2), vec![(0, 1), (2, 1)]);
    }

    #[test]
    fn negative_steps() {
        // x[::-2] over (3, 3, 3): positions 8, 6, 4, 2, 0.
        assert_eq!(pieces(&[3, 3, 3], 8, -2, 5), vec![(2, 2), (1, 1), (0, 2)]);
        // x[::-1] over (4, 1): positions 4, 3, 2, 1, 0.
        assert_eq!(pieces(&[4, 1], 4, -1, 5), vec![(1, 1), (0, 4)]);
        // x[5:0:-3] over (2, 2, 2): positions 5, 2.
        assert_eq!(pieces(&[2, 2, 2], 5, -3, 2), vec![(2, 1), (1, 1)]);
    }

    #[test]
    fn empty_slices_keep_one_chunk() {
        assert_eq!(pieces(&[3, 3], 6, 1, 0), vec![(0, 0)]);
        assert_eq!(pieces(&[0], 0, 1, 0), vec![(0, 0)]);
    }
}
