//! The corners of a printed tensor: the positions NumPy shows when it summarizes an
//! array (the first and last three along every axis it elides), as regions of the
//! tensor's chunks. One rule, [`corner_pieces`], serves the tiler (which chunks a
//! [`ChunkOp::Corners`] chunk reads, in what order), the planner (where each region
//! lands) and `verify`, so the three cannot disagree.
//!
//! [`ChunkOp::Corners`]: super::ChunkOp::Corners

use super::{ChunkGraph, ChunkId, Layout};
use crate::error::Violation;
use marsc_runtime::format::{is_summarized, shown_ranges};
use std::ops::Range;

/// One region of one input chunk and where it lands in the corners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CornerPiece {
    /// The input chunk's index in its step (C order of the grid).
    pub chunk: usize,
    /// The region, local to the input chunk.
    pub region: Vec<Range<usize>>,
    /// Where the region's first element lands in the corners.
    pub at: Vec<usize>,
}

/// Per axis and per chunk along it: the local ranges of the chunk that are shown,
/// each with where it lands along the axis of the corners.
type ShownByChunk = Vec<Vec<Vec<(Range<usize>, usize)>>>;

fn shown_by_chunk(layout: &Layout) -> ShownByChunk {
    let summarize = is_summarized(layout.shape());
    (0..layout.ndim())
        .map(|axis| {
            let starts = layout.offsets(axis);
            let mut per_chunk = vec![Vec::new(); layout.chunks_along(axis)];
            let mut landed = 0;
            for range in shown_ranges(layout.shape()[axis], summarize) {
                let mut position = range.start;
                while position < range.end {
                    let chunk = layout.chunk_at(axis, position);
                    let end = range.end.min(starts[chunk + 1]);
                    per_chunk[chunk].push((position - starts[chunk]..end - starts[chunk], landed));
                    landed += end - position;
                    position = end;
                }
            }
            per_chunk
        })
        .collect()
}

/// Every region of `layout`'s chunks that the corners are made of: input chunks in
/// C order of the grid, and within one chunk its regions in C order. They tile the
/// corners exactly.
pub fn corner_pieces(layout: &Layout) -> Vec<CornerPiece> {
    let shown = shown_by_chunk(layout);
    // Per axis, the chunks along it that hold a shown position.
    let touched: Vec<Vec<usize>> = shown
        .iter()
        .map(|per_chunk| {
            (0..per_chunk.len())
                .filter(|&c| !per_chunk[c].is_empty())
                .collect()
        })
        .collect();
    let grid: Vec<usize> = touched.iter().map(Vec::len).collect();
    let mut pieces = Vec::new();
    let mut position = Vec::with_capacity(layout.ndim());
    super::layout::for_each_position(&grid, |picked| {
        position.clear();
        position.extend(picked.iter().zip(&touched).map(|(&i, chunks)| chunks[i]));
        let chunk = layout.index_of(&position);
        let per_axis: Vec<&Vec<(Range<usize>, usize)>> = position
            .iter()
            .zip(&shown)
            .map(|(&c, per_chunk)| &per_chunk[c])
            .collect();
        let counts: Vec<usize> = per_axis.iter().map(|ranges| ranges.len()).collect();
        super::layout::for_each_position(&counts, |which| {
            let (region, at) = which
                .iter()
                .zip(&per_axis)
                .map(|(&k, ranges)| ranges[k].clone())
                .unzip();
            pieces.push(CornerPiece { chunk, region, at });
        });
    });
    pieces
}

/// Checks a [`ChunkOp::Corners`] chunk: one chunk of the corners' shape reading,
/// piece by piece, the chunks [`corner_pieces`] names.
pub fn verify_corners(graph: &ChunkGraph, chunk: ChunkId) -> Result<(), Violation> {
    let step = graph.step_of(chunk);
    let [whole] = step.inputs.as_slice() else {
        return Err("corners read exactly one tensor".into());
    };
    let whole = graph.step(*whole);
    let expected_shape = marsc_runtime::format::summary_shape(whole.layout.shape())
        .ok_or("corners of a tensor printed whole")?;
    if step.layout.shape() != expected_shape || step.num_chunks != 1 {
        return Err(format!(
            "corners of shape {:?} in {} chunks, expected one chunk of {expected_shape:?}",
            step.layout.shape(),
            step.num_chunks
        )
        .into());
    }
    let expected: Vec<ChunkId> = corner_pieces(&whole.layout)
        .iter()
        .map(|piece| whole.chunk(piece.chunk))
        .collect();
    if graph.inputs(chunk) == expected.as_slice() {
        Ok(())
    } else {
        Err("corners read other chunks than their pieces name".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_axis_in_one_chunk_gives_two_pieces() {
        let pieces = corner_pieces(&Layout::single(&[2000]));
        assert_eq!(
            pieces,
            [
                CornerPiece {
                    chunk: 0,
                    region: std::iter::once(0..3).collect(),
                    at: vec![0]
                },
                CornerPiece {
                    chunk: 0,
                    region: std::iter::once(1997..2000).collect(),
                    at: vec![3]
                },
            ]
        );
    }

    #[test]
    fn pieces_follow_chunk_boundaries_and_skip_the_middle() {
        // 1-d, chunks of 2: the head crosses chunks 0 and 1, the tail 999 and 1000.
        let layout = Layout::new(vec![vec![2; 1001]]);
        let pieces = corner_pieces(&layout);
        let summary: Vec<(usize, Range<usize>, usize)> = pieces
            .iter()
            .map(|p| (p.chunk, p.region[0].clone(), p.at[0]))
            .collect();
        assert_eq!(
            summary,
            [(0, 0..2, 0), (1, 0..1, 2), (999, 1..2, 3), (1000, 0..2, 4)]
        );
    }

    #[test]
    fn two_d_corners_cover_four_blocks() {
        // (2, 1000) in one chunk: the short axis is shown whole.
        let pieces = corner_pieces(&Layout::single(&[2, 1000]));
        let regions: Vec<_> = pieces
            .iter()
            .map(|p| (p.region.clone(), p.at.clone()))
            .collect();
        assert_eq!(
            regions,
            [
                (vec![0..2, 0..3], vec![0, 0]),
                (vec![0..2, 997..1000], vec![0, 3])
            ]
        );
        let grid = Layout::new(vec![vec![500, 500], vec![500, 500]]);
        assert_eq!(corner_pieces(&grid).len(), 4);
    }
}
