//! Shape rules: broadcasting, axis normalization, reductions, matmul, reshape,
//! transpose, squeeze, expand_dims, concatenate and broadcast_to. Error messages are
//! NumPy's, character for character, so users can search for them.

use super::{InferError, InferResult};
use crate::ops::geometry::{broadcast_shapes_error, broadcast_together};

pub use crate::ops::text::compact_tuple;

/// `np.broadcast_shapes`: axes aligned from the right, length 1 stretches
/// (`ops::geometry`'s rule, which the element-wise family's verifier uses too).
pub fn broadcast_shapes(shapes: &[&[usize]]) -> InferResult<Vec<usize>> {
    broadcast_together(shapes).ok_or_else(|| {
        let (message, help) = broadcast_shapes_error(shapes);
        InferError::new(message).with_help(help)
    })
}

/// Makes a possibly negative axis non-negative and checks it is in range.
pub fn normalize_axis(axis: i64, ndim: usize) -> InferResult<usize> {
    let ndim_signed = ndim as i64;
    let resolved = if axis < 0 { axis + ndim_signed } else { axis };
    if (0..ndim_signed).contains(&resolved) {
        Ok(resolved as usize)
    } else {
        Err(InferError::new(format!(
            "axis {axis} is out of bounds for array of dimension {ndim}"
        )))
    }
}

/// Normalizes several axes; the result is sorted and a repeated axis is an error.
pub fn normalize_axes(axes: &[i64], ndim: usize) -> InferResult<Vec<usize>> {
    sorted_unique_axes(axes, ndim, "repeated axis")
}

/// Normalizes several axes; the result is sorted and a repeated axis is an error
/// with the message `repeated` (NumPy words it differently per function).
pub fn sorted_unique_axes(axes: &[i64], ndim: usize, repeated: &str) -> InferResult<Vec<usize>> {
    let mut out = Vec::with_capacity(axes.len());
    for &axis in axes {
        let axis = normalize_axis(axis, ndim)?;
        if out.contains(&axis) {
            return Err(InferError::new(repeated));
        }
        out.push(axis);
    }
    out.sort_unstable();
    Ok(out)
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

const MATMUL_SIGNATURE: &str = "(n?,k),(k,m?)->(n?,m?)";

/// The shape of `a @ b`. Lowering passes 2-D operands; 1-D ones follow NumPy too.
pub fn matmul_shape(a: &[usize], b: &[usize]) -> InferResult<Vec<usize>> {
    for (index, shape) in [a, b].into_iter().enumerate() {
        if shape.is_empty() {
            return Err(InferError::new(format!(
                "matmul: Input operand {index} does not have enough dimensions (has 0, gufunc core with signature {MATMUL_SIGNATURE} requires 1)"
            )));
        }
        if shape.len() > 2 {
            return Err(InferError::new(
                "not supported yet: matmul of operands with more than 2 dimensions",
            ));
        }
    }
    let a_inner = a[a.len() - 1];
    let b_inner = b[0];
    if a_inner != b_inner {
        return Err(InferError::new(format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {MATMUL_SIGNATURE} (size {b_inner} is different from {a_inner})"
        )));
    }
    let mut out = Vec::with_capacity(2);
    if a.len() == 2 {
        out.push(a[0]);
    }
    if b.len() == 2 {
        out.push(b[1]);
    }
    Ok(out)
}

/// Formats a requested reshape as NumPy's error does: leading unknown sizes are
/// skipped, later ones print as `newaxis`, and only a one-entry request gets a comma.
fn requested_shape_text(new: &[i64]) -> String {
    let Some(first) = new.iter().position(|&d| d >= 0) else {
        return "()".to_string();
    };
    let mut text = new[first].to_string();
    for &dim in &new[first + 1..] {
        if dim < 0 {
            text.push_str(",newaxis");
        } else {
            text.push_str(&format!(",{dim}"));
        }
    }
    if new.len() == 1 {
        format!("({text},)")
    } else {
        format!("({text})")
    }
}

/// The shape `reshape(new)` gives; one negative entry (NumPy accepts any negative
/// value, conventionally `-1`) is inferred from the size.
pub fn reshape_shape(shape: &[usize], new: &[i64]) -> InferResult<Vec<usize>> {
    let size: usize = shape.iter().product();
    let mismatch = || {
        InferError::new(format!(
            "cannot reshape array of size {size} into shape {}",
            requested_shape_text(new)
        ))
        .with_help(format!(
            "the new shape must have {size} elements in all; one entry may be -1 to infer it"
        ))
    };
    let mut unknown = None;
    let mut known: usize = 1;
    for (position, &dim) in new.iter().enumerate() {
        if dim < 0 {
            if unknown.is_some() {
                return Err(InferError::new("can only specify one unknown dimension"));
            }
            unknown = Some(position);
        } else {
            known = usize::try_from(dim)
                .ok()
                .and_then(|d| known.checked_mul(d))
                .ok_or_else(mismatch)?;
        }
    }
    let mut out: Vec<usize> = new.iter().map(|&d| d.max(0) as usize).collect();
    match unknown {
        Some(position) => {
            if known == 0 || !size.is_multiple_of(known) {
                return Err(mismatch());
            }
            out[position] = size / known;
        }
        None if known != size => return Err(mismatch()),
        None => {}
    }
    Ok(out)
}

/// The permutation `transpose(axes)` applies (reversed axes when `None`).
pub fn transpose_axes(ndim: usize, axes: Option<&[i64]>) -> InferResult<Vec<usize>> {
    let Some(axes) = axes else {
        return Ok((0..ndim).rev().collect());
    };
    if axes.len() != ndim {
        return Err(InferError::new("axes don't match array")
            .with_help(format!("give one axis for each of the {ndim} dimensions")));
    }
    let mut out = Vec::with_capacity(ndim);
    for &axis in axes {
        let axis = normalize_axis(axis, ndim)?;
        if out.contains(&axis) {
            return Err(InferError::new("repeated axis in transpose"));
        }
        out.push(axis);
    }
    Ok(out)
}

/// The input axes `squeeze(axes)` removes (every length-1 axis when `None`), sorted.
pub fn squeeze_axes(shape: &[usize], axes: Option<&[i64]>) -> InferResult<Vec<usize>> {
    let Some(axes) = axes else {
        return Ok((0..shape.len()).filter(|&a| shape[a] == 1).collect());
    };
    let out = sorted_unique_axes(axes, shape.len(), "duplicate value in 'axis'")?;
    if out.iter().any(|&axis| shape[axis] != 1) {
        return Err(InferError::new(
            "cannot select an axis to squeeze out which has size not equal to one",
        ));
    }
    Ok(out)
}

/// The output positions `expand_dims(axes)` inserts, sorted.
pub fn expand_dims_axes(ndim: usize, axes: &[i64]) -> InferResult<Vec<usize>> {
    sorted_unique_axes(axes, ndim + axes.len(), "repeated axis")
}

/// The normalized axis and output shape of `concatenate(shapes, axis)`.
pub fn concat_shape(shapes: &[&[usize]], axis: i64) -> InferResult<(usize, Vec<usize>)> {
    let Some(first) = shapes.first() else {
        return Err(InferError::new("need at least one array to concatenate"));
    };
    if first.is_empty() {
        return Err(InferError::new(
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let axis = normalize_axis(axis, first.len())?;
    let mut out = first.to_vec();
    for (index, shape) in shapes.iter().enumerate().skip(1) {
        if shape.len() != first.len() {
            return Err(InferError::new(format!(
                "all the input arrays must have same number of dimensions, but the array at index 0 has {} dimension(s) and the array at index {index} has {} dimension(s)",
                first.len(),
                shape.len()
            )));
        }
        for (dim, (&len, &expected)) in shape.iter().zip(first.iter()).enumerate() {
            if dim == axis {
                out[dim] = out[dim].checked_add(len).ok_or_else(too_big)?;
            } else if len != expected {
                return Err(InferError::new(format!(
                    "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {dim}, the array at index 0 has size {expected} and the array at index {index} has size {len}"
                )));
            }
        }
    }
    Ok((axis, out))
}

/// NumPy's error for a result whose size overflows.
fn too_big() -> InferError {
    InferError::new(
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size",
    )
}

/// Checks that `from` can be broadcast to `to`.
pub fn broadcast_to_check(from: &[usize], to: &[usize]) -> InferResult<()> {
    match crate::ops::geometry::broadcast_to_error(from, to) {
        Some((message, help)) => Err(InferError::new(message).with_help(help)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message<T: std::fmt::Debug>(result: InferResult<T>) -> String {
        result.unwrap_err().message
    }

    #[test]
    fn broadcasting() {
        assert_eq!(broadcast_shapes(&[&[2, 3], &[3]]), Ok(vec![2, 3]));
        assert_eq!(broadcast_shapes(&[&[4, 1], &[1, 5], &[]]), Ok(vec![4, 5]));
        assert_eq!(broadcast_shapes(&[&[0, 1], &[1, 3]]), Ok(vec![0, 3]));
        assert_eq!(broadcast_shapes(&[&[1], &[0]]), Ok(vec![0]));
        assert_eq!(broadcast_shapes(&[]), Ok(vec![]));
        assert_eq!(
            message(broadcast_shapes(&[&[2, 3], &[4]])),
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
        assert_eq!(
            message(broadcast_shapes(&[&[2, 3], &[], &[5]])),
            "operands could not be broadcast together with shapes (2,3) () (5,)"
        );
    }

    #[test]
    fn axes() {
        assert_eq!(normalize_axis(-1, 2), Ok(1));
        assert_eq!(
            message(normalize_axis(3, 2)),
            "axis 3 is out of bounds for array of dimension 2"
        );
        assert_eq!(
            message(normalize_axis(-3, 2)),
            "axis -3 is out of bounds for array of dimension 2"
        );
        assert_eq!(normalize_axes(&[2, 0, -2], 3), Ok(vec![0, 1, 2]));
        assert_eq!(message(normalize_axes(&[0, -2], 2)), "repeated axis");
        assert_eq!(reduced_shape(&[2, 3, 4], &[0, 2], false), vec![3]);
        assert_eq!(reduced_shape(&[2, 3, 4], &[0, 2], true), vec![1, 3, 1]);
    }

    #[test]
    fn matmul() {
        assert_eq!(matmul_shape(&[2, 3], &[3, 5]), Ok(vec![2, 5]));
        assert_eq!(matmul_shape(&[3], &[3, 5]), Ok(vec![5]));
        assert_eq!(matmul_shape(&[2, 3], &[3]), Ok(vec![2]));
        assert_eq!(
            message(matmul_shape(&[2, 3], &[4, 5])),
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)"
        );
        assert_eq!(
            message(matmul_shape(&[], &[2, 2])),
            "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
        );
    }

    #[test]
    fn reshape() {
        assert_eq!(reshape_shape(&[2, 3], &[3, -1]), Ok(vec![3, 2]));
        assert_eq!(reshape_shape(&[2, 3], &[-1]), Ok(vec![6]));
        assert_eq!(reshape_shape(&[1], &[]), Ok(vec![]));
        assert_eq!(reshape_shape(&[0, 3], &[3, -1]), Ok(vec![3, 0]));
        assert_eq!(reshape_shape(&[2, 3], &[-2, 3]), Ok(vec![2, 3]));
        let cases: [(&[usize], &[i64], &str); 8] = [
            (
                &[2, 3],
                &[4],
                "cannot reshape array of size 6 into shape (4,)",
            ),
            (
                &[2, 3],
                &[4, 5],
                "cannot reshape array of size 6 into shape (4,5)",
            ),
            (
                &[2, 3],
                &[-1, 4],
                "cannot reshape array of size 6 into shape (4)",
            ),
            (
                &[2, 3],
                &[5, -1],
                "cannot reshape array of size 6 into shape (5,newaxis)",
            ),
            (
                &[2, 3],
                &[5, -1, 2],
                "cannot reshape array of size 6 into shape (5,newaxis,2)",
            ),
            (&[2, 3], &[], "cannot reshape array of size 6 into shape ()"),
            (
                &[0, 3],
                &[-1, 0],
                "cannot reshape array of size 0 into shape (0)",
            ),
            (&[2, 3], &[-1, -1], "can only specify one unknown dimension"),
        ];
        for (shape, new, expected) in cases {
            assert_eq!(message(reshape_shape(shape, new)), expected, "{new:?}");
        }
    }

    #[test]
    fn transpose_squeeze_expand() {
        assert_eq!(transpose_axes(3, None), Ok(vec![2, 1, 0]));
        assert_eq!(transpose_axes(3, Some(&[1, -1, 0])), Ok(vec![1, 2, 0]));
        assert_eq!(
            message(transpose_axes(2, Some(&[0]))),
            "axes don't match array"
        );
        assert_eq!(
            message(transpose_axes(2, Some(&[0, 0]))),
            "repeated axis in transpose"
        );
        assert_eq!(
            message(transpose_axes(2, Some(&[0, 2]))),
            "axis 2 is out of bounds for array of dimension 2"
        );
        assert_eq!(squeeze_axes(&[1, 2, 1], None), Ok(vec![0, 2]));
        assert_eq!(squeeze_axes(&[1, 2, 1], Some(&[-1])), Ok(vec![2]));
        assert_eq!(
            message(squeeze_axes(&[2, 3], Some(&[0]))),
            "cannot select an axis to squeeze out which has size not equal to one"
        );
        assert_eq!(
            message(squeeze_axes(&[1, 1], Some(&[0, 0]))),
            "duplicate value in 'axis'"
        );
        // np.expand_dims(np.zeros((2, 3)), (0, 4)).shape == (1, 2, 3, 1)
        assert_eq!(expand_dims_axes(2, &[0, -1]), Ok(vec![0, 3]));
        assert_eq!(message(expand_dims_axes(2, &[0, 0])), "repeated axis");
        assert_eq!(
            message(expand_dims_axes(2, &[4, 0])),
            "axis 4 is out of bounds for array of dimension 4"
        );
    }

    #[test]
    fn concatenate() {
        assert_eq!(concat_shape(&[&[2, 3], &[2, 4]], -1), Ok((1, vec![2, 7])));
        assert_eq!(concat_shape(&[&[2, 3]], 0), Ok((0, vec![2, 3])));
        let cases: [(&[&[usize]], i64, &str); 5] = [
            (&[&[2, 3], &[3, 4]], 1, "all the input array dimensions except for the concatenation axis must match exactly, but along dimension 0, the array at index 0 has size 2 and the array at index 1 has size 3"),
            (&[&[2, 3], &[3]], 0, "all the input arrays must have same number of dimensions, but the array at index 0 has 2 dimension(s) and the array at index 1 has 1 dimension(s)"),
            (&[], 0, "need at least one array to concatenate"),
            (&[&[]], 0, "zero-dimensional arrays cannot be concatenated"),
            (&[&[2, 3]], 2, "axis 2 is out of bounds for array of dimension 2"),
        ];
        for (shapes, axis, expected) in cases {
            assert_eq!(message(concat_shape(shapes, axis)), expected);
        }
    }

    #[test]
    fn broadcast_to() {
        assert_eq!(broadcast_to_check(&[1, 3], &[4, 3]), Ok(()));
        assert_eq!(broadcast_to_check(&[3], &[0, 3]), Ok(()));
        assert_eq!(
            message(broadcast_to_check(&[3], &[2, 4])),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,)  and requested shape (2,4)"
        );
        assert_eq!(
            message(broadcast_to_check(&[2, 3], &[3])),
            "input operand has more dimensions than allowed by the axis remapping"
        );
    }
}
