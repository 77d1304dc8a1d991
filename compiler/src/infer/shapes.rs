//! Shape rules: broadcasting, axis normalization, reductions, matmul, reshape,
//! transpose, squeeze, expand_dims, concatenate and broadcast_to.

use super::{InferError, InferResult};

/// `np.broadcast_shapes`.
pub fn broadcast_shapes(shapes: &[&[usize]]) -> InferResult<Vec<usize>> {
    let _ = shapes;
    Err(InferError::new("not supported yet: broadcast_shapes"))
}

/// Makes a possibly negative axis non-negative and checks it is in range.
pub fn normalize_axis(axis: i64, ndim: usize) -> InferResult<usize> {
    let _ = (axis, ndim);
    Err(InferError::new("not supported yet: normalize_axis"))
}

/// Normalizes several axes; the result is sorted and a repeated axis is an error.
pub fn normalize_axes(axes: &[i64], ndim: usize) -> InferResult<Vec<usize>> {
    let _ = (axes, ndim);
    Err(InferError::new("not supported yet: normalize_axes"))
}

/// The shape after reducing over `axes` (sorted, in range).
pub fn reduced_shape(shape: &[usize], axes: &[usize], keepdims: bool) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(axis, &len)| match (axes.contains(&axis), keepdims) {
            (false, _) => Some(len),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// The shape of `a @ b` for two 2-D operands.
pub fn matmul_shape(a: &[usize], b: &[usize]) -> InferResult<Vec<usize>> {
    let _ = (a, b);
    Err(InferError::new("not supported yet: matmul_shape"))
}

/// The shape `reshape(new)` gives, with at most one `-1` inferred.
pub fn reshape_shape(shape: &[usize], new: &[i64]) -> InferResult<Vec<usize>> {
    let _ = (shape, new);
    Err(InferError::new("not supported yet: reshape_shape"))
}

/// The permutation `transpose(axes)` applies (reversed axes when `None`).
pub fn transpose_axes(ndim: usize, axes: Option<&[i64]>) -> InferResult<Vec<usize>> {
    match axes {
        None => Ok((0..ndim).rev().collect()),
        Some(_) => Err(InferError::new("not supported yet: transpose axes")),
    }
}

/// The input axes `squeeze(axes)` removes (every length-1 axis when `None`), sorted.
pub fn squeeze_axes(shape: &[usize], axes: Option<&[i64]>) -> InferResult<Vec<usize>> {
    let _ = (shape, axes);
    Err(InferError::new("not supported yet: squeeze_axes"))
}

/// The output positions `expand_dims(axes)` inserts, sorted.
pub fn expand_dims_axes(ndim: usize, axes: &[i64]) -> InferResult<Vec<usize>> {
    let _ = (ndim, axes);
    Err(InferError::new("not supported yet: expand_dims_axes"))
}

/// The normalized axis and output shape of `concatenate(shapes, axis)`.
pub fn concat_shape(shapes: &[&[usize]], axis: i64) -> InferResult<(usize, Vec<usize>)> {
    let _ = (shapes, axis);
    Err(InferError::new("not supported yet: concat_shape"))
}

/// Checks that `from` can be broadcast to `to`.
pub fn broadcast_to_check(from: &[usize], to: &[usize]) -> InferResult<()> {
    let _ = (from, to);
    Err(InferError::new("not supported yet: broadcast_to_check"))
}
