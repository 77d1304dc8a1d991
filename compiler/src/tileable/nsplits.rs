//! How each op's output is chunked, given its inputs' chunking. The tiler trusts
//! these: every output chunk must be computable from whole input chunks (after the
//! rechunks the tiler inserts to unify operands), every axis's splits sum to its
//! length, and no chunk is empty except the single `[0]` of an empty axis. The
//! rules that know no op are `infer::nsplits`'s; each family answers for its own
//! ops (`ops::*::nsplits`).

use super::{IndexItem, TileOp};
use crate::infer::linalg::{stacked_axes, tsqr_row_splits};
use crate::infer::nsplits::{non_empty, unify_splits};
use crate::ops::geometry::axis_splits;

/// The shape and chunking of one input of an op.
#[derive(Clone, Copy, Debug)]
pub struct InputLayout<'a> {
    pub shape: &'a [usize],
    pub nsplits: &'a [Vec<usize>],
}

impl InputLayout<'_> {
    /// This input's splits along `axis`, or one chunk if it has none recorded.
    fn splits(&self, axis: usize) -> Vec<usize> {
        axis_splits(self.shape, self.nsplits, axis)
    }
}

fn one_chunk_each(shape: &[usize]) -> Vec<Vec<usize>> {
    shape.iter().map(|&len| vec![len]).collect()
}

/// The output nsplits of `op` applied to `inputs`, producing `out_shape`.
pub fn infer_nsplits(op: &TileOp, inputs: &[InputLayout], out_shape: &[usize]) -> Vec<Vec<usize>> {
    let Some(first) = inputs.first() else {
        return one_chunk_each(out_shape);
    };
    let nsplits = match op {
        TileOp::Elementwise(op) => {
            let inputs: Vec<(&[usize], &[Vec<usize>])> = inputs
                .iter()
                .map(|input| (input.shape, input.nsplits))
                .collect();
            op.nsplits(&inputs, out_shape)
        }
        TileOp::Reduce(op) => op.nsplits(first.shape.len(), |axis| first.splits(axis)),
        TileOp::MatMul => match inputs {
            [a, b] => vec![a.splits(0), b.splits(1)],
            _ => one_chunk_each(out_shape),
        },
        TileOp::Shape(op) => op.nsplits(first.shape, first.nsplits, out_shape),
        TileOp::Index { items } => index(first, items),
        TileOp::Concatenate { axis } => concatenate(inputs, *axis, out_shape),
        TileOp::Linalg(marsc_runtime::kernels::linalg::LinalgOp::QrQ) => vec![
            tsqr_row_splits(&first.splits(0), out_shape[1]),
            vec![out_shape[1]],
        ],
        // Stacked matrices keep their chunking along the leading axes.
        TileOp::Linalg(op) => {
            let lead = stacked_axes(*op, first.shape).min(out_shape.len());
            (0..out_shape.len())
                .map(|axis| {
                    if axis < lead {
                        first.splits(axis)
                    } else {
                        vec![out_shape[axis]]
                    }
                })
                .collect()
        }
        // A cached tensor is never lowered from source: it is made with its own splits.
        TileOp::Create(_) | TileOp::Rechunk => one_chunk_each(out_shape),
        // One chunk per mask block along axis 0.
        TileOp::BlockCounts => vec![vec![1; first.nsplits.first().map_or(1, Vec::len)]],
        TileOp::IndexBlocks { splits } => vec![
            vec![1; first.nsplits.first().map_or(1, Vec::len)],
            vec![splits.len() + 2],
        ],
        TileOp::BinCounts(binning) => vec![
            vec![1; first.nsplits.first().map_or(1, Vec::len)],
            vec![binning.bins()],
        ],
        TileOp::Scatter { .. } => first.nsplits.to_vec(),
        TileOp::Gather { axis, .. } => {
            let mut nsplits = first.nsplits.to_vec();
            nsplits[*axis] = inputs
                .get(1)
                .map_or_else(|| vec![out_shape[*axis]], |idx| idx.splits(0));
            nsplits
        }
        TileOp::Sort(op) => {
            let nsplits: Vec<&[Vec<usize>]> = inputs.iter().map(|input| input.nsplits).collect();
            op.nsplits(&nsplits, out_shape)
        }
        TileOp::Compress { axis, counts } => {
            let mut nsplits: Vec<Vec<usize>> = first.nsplits[..*axis].to_vec();
            let mut selected: Vec<usize> = counts.iter().copied().filter(|&c| c > 0).collect();
            if selected.is_empty() {
                selected.push(0);
            }
            nsplits.push(selected);
            let mask_ndim = inputs.get(1).map_or(1, |mask| mask.shape.len());
            nsplits.extend_from_slice(&first.nsplits[axis + mask_ndim..]);
            nsplits
        }
    };
    checked(nsplits, out_shape)
}

/// Normalizes empty chunks away and falls back to one chunk for any axis whose
/// splits do not cover it (an internal inconsistency, caught in debug builds).
fn checked(nsplits: Vec<Vec<usize>>, out_shape: &[usize]) -> Vec<Vec<usize>> {
    debug_assert_eq!(nsplits.len(), out_shape.len(), "nsplits rank");
    let mut given = nsplits.into_iter();
    out_shape
        .iter()
        .enumerate()
        .map(|(axis, &len)| match given.next() {
            Some(splits) if splits.iter().sum::<usize>() == len => non_empty(splits),
            other => {
                debug_assert!(
                    false,
                    "splits {other:?} do not cover axis {axis} of length {len}"
                );
                vec![len]
            }
        })
        .collect()
}

fn concatenate(inputs: &[InputLayout], axis: usize, out_shape: &[usize]) -> Vec<Vec<usize>> {
    (0..out_shape.len())
        .map(|dim| {
            let per_input = inputs.iter().map(|input| input.splits(dim));
            if dim == axis {
                per_input.flatten().collect()
            } else {
                per_input
                    .reduce(|a, b| unify_splits(&a, &b))
                    .unwrap_or_else(|| vec![out_shape[dim]])
            }
        })
        .collect()
}

fn index(input: &InputLayout, items: &[IndexItem]) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(items.len());
    let mut axis = 0;
    for item in items {
        match *item {
            IndexItem::Int(_) => axis += 1,
            IndexItem::NewAxis => out.push(vec![1]),
            IndexItem::Slice { start, step, len } => {
                out.push(slice_splits(&input.splits(axis), start, step, len));
                axis += 1;
            }
        }
    }
    out
}

/// Output chunks of a slice: consecutive selected elements that fall in the same
/// input chunk form one output chunk, in output order.
fn slice_splits(in_splits: &[usize], start: i64, step: i64, len: usize) -> Vec<usize> {
    if len == 0 || step == 0 {
        return vec![len];
    }
    let (start, step, len) = (i128::from(start), i128::from(step), len as i128);
    // The k-range [first, end) of output positions whose source `start + k*step`
    // lies in the input range [lo, hi).
    let selected = |lo: i128, hi: i128| -> usize {
        let (first, end) = if step > 0 {
            (ceil_div(lo - start, step), ceil_div(hi - start, step))
        } else {
            let stride = -step;
            (
                (start - hi).div_euclid(stride) + 1,
                (start - lo).div_euclid(stride) + 1,
            )
        };
        (end.clamp(0, len) - first.clamp(0, len)).max(0) as usize
    };
    let mut bounds = Vec::with_capacity(in_splits.len());
    let mut lo = 0i128;
    for &size in in_splits {
        bounds.push((lo, lo + size as i128));
        lo += size as i128;
    }
    if step < 0 {
        bounds.reverse();
    }
    non_empty(
        bounds
            .into_iter()
            .map(|(lo, hi)| selected(lo, hi))
            .collect(),
    )
}

fn ceil_div(numerator: i128, denominator: i128) -> i128 {
    -(-numerator).div_euclid(denominator)
}

#[cfg(test)]
#[path = "nsplits_tests.rs"]
mod tests;
