//! Assignment through an integer index along one axis (`x[idx] = values`,
//! `x[:, idx] += v`): one chunk of x (a block along the axis) with, in index order,
//! every index chunk that names a position in the block and the values' chunk beside
//! it. Later writes to a position replace earlier ones, so of repeated indices the
//! last one's value stays, as NumPy's assignment leaves it.

use crate::array::ArrayData;
use crate::kernels::KernelError;
use ndarray::{ArrayD, Axis};

/// A copy of `x` (the block of an axis of length `len` starting at `start`) with
/// the slabs along `axis` that the `(index, values)` pairs name replaced by the
/// values' slabs, pair after pair and index after index. Negative indices count
/// from the end of the axis; the compiler has checked that every one is in bounds.
pub fn scatter(
    x: &ArrayData,
    pairs: &[(&ArrayData, &ArrayData)],
    axis: usize,
    start: usize,
    len: usize,
) -> Result<ArrayData, KernelError> {
    let indices = pairs
        .iter()
        .map(|(idx, _)| index_values(idx))
        .collect::<Result<Vec<_>, _>>()?;
    macro_rules! typed {
        ($variant:ident, $x:expr) => {{
            let values = pairs
                .iter()
                .map(|(_, values)| match values {
                    ArrayData::$variant(v) => Ok(v),
                    other => Err(KernelError::new(format!(
                        "internal error: scattering {} values into a {} chunk",
                        other.dtype(),
                        x.dtype()
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            ArrayData::$variant(scatter_typed($x, &indices, &values, axis, start, len)?)
        }};
    }
    Ok(match x {
        ArrayData::Bool(a) => typed!(Bool, a),
        ArrayData::Int8(a) => typed!(Int8, a),
        ArrayData::Int16(a) => typed!(Int16, a),
        ArrayData::Int32(a) => typed!(Int32, a),
        ArrayData::Int64(a) => typed!(Int64, a),
        ArrayData::UInt8(a) => typed!(UInt8, a),
        ArrayData::UInt16(a) => typed!(UInt16, a),
        ArrayData::UInt32(a) => typed!(UInt32, a),
        ArrayData::UInt64(a) => typed!(UInt64, a),
        ArrayData::Float16(a) => typed!(Float16, a),
        ArrayData::Float32(a) => typed!(Float32, a),
        ArrayData::Float64(a) => typed!(Float64, a),
        ArrayData::Complex64(a) => typed!(Complex64, a),
        ArrayData::Complex128(a) => typed!(Complex128, a),
    })
}

fn scatter_typed<T: Clone>(
    x: &ArrayD<T>,
    indices: &[Vec<i64>],
    values: &[&ArrayD<T>],
    axis: usize,
    start: usize,
    len: usize,
) -> Result<ArrayD<T>, KernelError> {
    if axis >= x.ndim() {
        return Err(KernelError::new(format!(
            "internal error: scattering along axis {axis} of a {}-D chunk",
            x.ndim()
        )));
    }
    let mut out = x.as_standard_layout().into_owned();
    let block = out.shape()[axis];
    for (idx, values) in indices.iter().zip(values) {
        let mut expected = out.shape().to_vec();
        expected[axis] = idx.len();
        if values.shape() != expected.as_slice() {
            return Err(KernelError::new(format!(
                "internal error: values of shape {:?} for {} indices into a chunk of shape {:?}",
                values.shape(),
                idx.len(),
                out.shape()
            )));
        }
        for (k, &v) in idx.iter().enumerate() {
            let wrapped = if v < 0 { v + len as i64 } else { v };
            let position = usize::try_from(wrapped)
                .ok()
                .filter(|&p| p < len)
                .ok_or_else(|| {
                    KernelError::new(format!(
                        "internal error: index {v} out of bounds for an axis of length {len}"
                    ))
                })?;
            if (start..start + block).contains(&position) {
                out.index_axis_mut(Axis(axis), position - start)
                    .assign(&values.index_axis(Axis(axis), k));
            }
        }
    }
    Ok(out)
}

/// An index chunk's values as int64.
fn index_values(idx: &ArrayData) -> Result<Vec<i64>, KernelError> {
    match idx {
        ArrayData::Int64(a) => Ok(a.iter().copied().collect()),
        other if other.dtype().is_int() => Ok(crate::kernels::int_values_saturating(other)),
        other => Err(KernelError::new(format!(
            "internal error: scattering through a {} index",
            other.dtype()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::IxDyn;

    fn ints(shape: &[usize], values: &[i64]) -> ArrayData {
        ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).unwrap())
    }

    #[test]
    fn the_last_write_to_a_position_stays() {
        // Block [2, 5) of an axis of length 6; -1 is position 5, outside the block.
        let x = ints(&[3], &[20, 30, 40]);
        let first = (&ints(&[3], &[3, 2, 3]), &ints(&[3], &[1, 2, 3]));
        let second = (&ints(&[2], &[-1, -4]), &ints(&[2], &[8, 9]));
        let out = scatter(&x, &[first, second], 0, 2, 6).unwrap();
        assert_eq!(out, ints(&[3], &[9, 3, 40]));
    }

    #[test]
    fn slabs_along_an_inner_axis() {
        let x = ints(&[2, 3], &[0, 1, 2, 3, 4, 5]);
        let pair = (&ints(&[1], &[1]), &ints(&[2, 1], &[7, 8]));
        let out = scatter(&x, &[pair], 1, 0, 3).unwrap();
        assert_eq!(out, ints(&[2, 3], &[0, 7, 2, 3, 8, 5]));
        assert!(scatter(&x, &[(&ints(&[1], &[3]), &ints(&[2, 1], &[7, 8]))], 1, 0, 3).is_err());
    }
}
