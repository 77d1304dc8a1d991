//! Per-chunk parameters derived on demand from a chunk's index and its step's
//! layout, so they are never stored per chunk: the local index items of a slice
//! chunk, and the input regions an assembled (rechunked) chunk is made of.

use super::{ChunkGraph, ChunkId, ChunkOp};
use crate::error::Violation;
use crate::tileable::IndexItem;
use std::ops::Range;

/// One index item relative to the input chunk (what a slice kernel applies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalIndexItem {
    /// A single position; drops the axis.
    Index(usize),
    /// `len` elements from `start`, `step` apart (negative steps walk backwards).
    Range {
        start: usize,
        step: isize,
        len: usize,
    },
    /// A new axis of length 1.
    NewAxis,
}

/// A region of one input chunk, in coordinates local to that chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub input: ChunkId,
    pub region: Vec<Range<usize>>,
}

impl ChunkGraph {
    /// The local index items of a `Slice` chunk, or an error naming what is wrong
    /// (the op is not a slice, or an item leaves its input chunk: a tiler bug).
    pub fn slice_items(&self, id: ChunkId) -> Result<Vec<LocalIndexItem>, Violation> {
        let ChunkOp::Slice { items } = &self.step_of(id).op else {
            return Err(format!("{id} is not a slice chunk").into());
        };
        let [input] = self.inputs(id) else {
            return Err(format!("slice chunk {id} must have one input").into());
        };
        let out_offset = self.chunk_offset(id);
        let out_shape = self.chunk_shape(id);
        let in_offset = self.chunk_offset(*input);
        let in_shape = self.chunk_shape(*input);
        let mut local = Vec::with_capacity(items.len());
        let (mut in_axis, mut out_axis) = (0, 0);
        for item in items {
            match *item {
                IndexItem::Int(position) => {
                    let (Some(&start), Some(&len)) =
                        (in_offset.get(in_axis), in_shape.get(in_axis))
                    else {
                        return Err(format!("slice chunk {id}: too many index items").into());
                    };
                    if position < start || position >= start + len {
                        return Err(format!(
                            "slice chunk {id}: index {position} is outside its input chunk {input}"
                        )
                        .into());
                    }
                    local.push(LocalIndexItem::Index(position - start));
                    in_axis += 1;
                }
                IndexItem::Slice { start, step, .. } => {
                    let (Some(&in_start), Some(&in_len)) =
                        (in_offset.get(in_axis), in_shape.get(in_axis))
                    else {
                        return Err(format!("slice chunk {id}: too many index items").into());
                    };
                    let (Some(&first), Some(&len)) =
                        (out_offset.get(out_axis), out_shape.get(out_axis))
                    else {
                        return Err(format!("slice chunk {id}: shape has too few axes").into());
                    };
                    local.push(local_range(start, step, first, len, in_start, in_len).ok_or_else(
                        || format!("slice chunk {id}: axis {in_axis} leaves its input chunk {input}"),
                    )?);
                    in_axis += 1;
                    out_axis += 1;
                }
                IndexItem::NewAxis => {
                    local.push(LocalIndexItem::NewAxis);
                    out_axis += 1;
                }
            }
        }
        Ok(local)
    }

    /// The regions of its inputs an `Assemble` chunk is made of, in input order.
    /// Each region is the overlap of the chunk with that input chunk, local to it.
    pub fn assemble_pieces(&self, id: ChunkId) -> Vec<Piece> {
        let out_offset = self.chunk_offset(id);
        let out_shape = self.chunk_shape(id);
        self.inputs(id)
            .iter()
            .map(|&input| {
                let in_offset = self.chunk_offset(input);
                let in_shape = self.chunk_shape(input);
                let region = (0..out_offset.len())
                    .map(|axis| {
                        let start = out_offset[axis].max(in_offset[axis]);
                        let end = (out_offset[axis] + out_shape[axis])
                            .min(in_offset[axis] + in_shape[axis])
                            .max(start);
                        start - in_offset[axis]..end - in_offset[axis]
                    })
                    .collect();
                Piece { input, region }
            })
            .collect()
    }
}

/// The local range of output elements `first..first + len` of the slice
/// `start::step`, inside an input chunk covering `in_start..in_start + in_len`;
/// `None` when they do not all fall inside it.
fn local_range(
    start: i64,
    step: i64,
    first: usize,
    len: usize,
    in_start: usize,
    in_len: usize,
) -> Option<LocalIndexItem> {
    let step_local = isize::try_from(step).ok()?;
    if len == 0 {
        return Some(LocalIndexItem::Range {
            start: 0,
            step: step_local,
            len: 0,
        });
    }
    let head = start.checked_add(step.checked_mul(first as i64)?)?;
    let tail = head.checked_add(step.checked_mul(len as i64 - 1)?)?;
    let (low, high) = (head.min(tail), head.max(tail));
    let (lo_bound, hi_bound) = (in_start as i64, (in_start + in_len) as i64);
    if low < lo_bound || high >= hi_bound {
        return None;
    }
    Some(LocalIndexItem::Range {
        start: (head - lo_bound) as usize,
        step: step_local,
        len,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_step_range_is_local() {
        // Elements 2..4 of x[9::-2] over a chunk covering 0..6: positions 5, 3.
        assert_eq!(
            local_range(9, -2, 2, 2, 0, 6),
            Some(LocalIndexItem::Range {
                start: 5,
                step: -2,
                len: 2
            })
        );
        assert_eq!(local_range(9, -2, 0, 2, 0, 6), None);
    }
}
