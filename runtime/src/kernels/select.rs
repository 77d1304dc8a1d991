//! Selection by a boolean mask (`x[mask]`, `compress`, `nonzero`): the count of true
//! elements of a mask block, and the selection itself. A selection's length is data,
//! so the compiler first runs the counts (one int64 per block), then plans the
//! selection with the lengths it got back; [`compress`] checks that the length it
//! finds is the one it was planned with.

use crate::array::{try_vec, ArrayData};
use crate::kernels::KernelError;
use ndarray::{ArrayD, IxDyn};

/// The number of true elements of a boolean chunk, as a one-element int64 array.
pub fn count_true(mask: &ArrayData) -> Result<ArrayData, KernelError> {
    let ArrayData::Bool(mask) = mask else {
        return Err(KernelError::new(format!(
            "internal error: counting the true elements of a {} chunk",
            mask.dtype()
        )));
    };
    let count = match mask.as_slice_memory_order() {
        Some(values) => values.iter().filter(|&&b| b).count(),
        None => mask.iter().filter(|&&b| b).count(),
    };
    Ok(ArrayData::Int64(ArrayD::from_elem(
        IxDyn(&[1]),
        count as i64,
    )))
}

/// `x` with axes `axis..axis + mask.ndim()` replaced by one axis holding, in C order
/// of the mask, the slabs of `x` where the mask is true (NumPy's `x[..., mask, ...]`
/// for one boolean index). `expected` is the selection's length the plan was made
/// with; another length is an internal error, never a silently different shape.
pub fn compress(
    x: &ArrayData,
    mask: &ArrayData,
    axis: usize,
    expected: usize,
) -> Result<ArrayData, KernelError> {
    let ArrayData::Bool(mask) = mask else {
        return Err(KernelError::new(format!(
            "internal error: selecting with a {} mask",
            mask.dtype()
        )));
    };
    let shape = x.shape();
    let k = mask.ndim();
    if axis + k > shape.len() || shape[axis..axis + k] != *mask.shape() {
        return Err(KernelError::new(format!(
            "internal error: a mask of shape {:?} does not match axes {axis}.. of a chunk of shape {shape:?}",
            mask.shape()
        )));
    }
    let selected: Vec<usize> = mask
        .iter()
        .enumerate()
        .filter_map(|(i, &b)| b.then_some(i))
        .collect();
    if selected.len() != expected {
        return Err(KernelError::new(format!(
            "internal error: a mask block selects {} elements, planned for {expected}",
            selected.len()
        )));
    }
    let outer: usize = shape[..axis].iter().product();
    let masked: usize = mask.len();
    let inner: usize = shape[axis + k..].iter().product();
    let mut out_shape = shape[..axis].to_vec();
    out_shape.push(expected);
    out_shape.extend_from_slice(&shape[axis + k..]);
    let slabs = Slabs {
        outer,
        masked,
        inner,
        selected: &selected,
        shape: &out_shape,
    };
    Ok(match x {
        ArrayData::Bool(a) => ArrayData::Bool(slabs.take(a)?),
        ArrayData::Int32(a) => ArrayData::Int32(slabs.take(a)?),
        ArrayData::Int64(a) => ArrayData::Int64(slabs.take(a)?),
        ArrayData::Float32(a) => ArrayData::Float32(slabs.take(a)?),
        ArrayData::Float64(a) => ArrayData::Float64(slabs.take(a)?),
    })
}

/// Where the selected slabs of a chunk are: `outer` runs of `masked` slabs of
/// `inner` elements each, of which the `selected` ones are kept.
struct Slabs<'a> {
    outer: usize,
    masked: usize,
    inner: usize,
    selected: &'a [usize],
    shape: &'a [usize],
}

impl Slabs<'_> {
    fn take<T: Copy>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>, KernelError> {
        let standard = a.as_standard_layout();
        let values = standard
            .as_slice()
            .ok_or_else(|| KernelError::new("internal error: a chunk is not contiguous"))?;
        let inner = self.inner;
        let mut out = try_vec(self.outer * self.selected.len() * inner)?;
        for o in 0..self.outer {
            let base = o * self.masked * inner;
            for &i in self.selected {
                let start = base + i * inner;
                out.extend_from_slice(&values[start..start + inner]);
            }
        }
        ArrayD::from_shape_vec(IxDyn(self.shape), out)
            .map_err(|e| KernelError::new(format!("internal error: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bools(shape: &[usize], values: &[bool]) -> ArrayData {
        ArrayData::Bool(ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).unwrap())
    }

    #[test]
    fn counts_true_elements() {
        let mask = bools(&[2, 2], &[true, false, true, true]);
        assert_eq!(
            count_true(&mask).unwrap(),
            ArrayData::Int64(ArrayD::from_elem(IxDyn(&[1]), 3))
        );
    }

    #[test]
    fn selects_slabs_along_a_middle_axis() {
        // x of shape (2, 3, 2); mask over axis 1 selects positions 0 and 2.
        let x =
            ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[2, 3, 2]), (0..12).collect()).unwrap());
        let mask = bools(&[3], &[true, false, true]);
        let out = compress(&x, &mask, 1, 2).unwrap();
        assert_eq!(
            out,
            ArrayData::Int64(
                ArrayD::from_shape_vec(IxDyn(&[2, 2, 2]), vec![0, 1, 4, 5, 6, 7, 10, 11]).unwrap()
            )
        );
    }

    #[test]
    fn a_length_other_than_planned_is_an_error() {
        let x = ArrayData::Float64(ArrayD::zeros(IxDyn(&[3])));
        let mask = bools(&[3], &[true, false, true]);
        assert!(compress(&x, &mask, 0, 1).is_err());
        assert!(compress(&x, &bools(&[2], &[true, true]), 0, 2).is_err());
    }
}
