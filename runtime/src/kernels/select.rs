//! Selection by a boolean mask (`x[mask]`, `compress`, `nonzero`) and by integer
//! indices (`x[idx]`, `take`). A selection's length is data, so the compiler first
//! runs the counts (one int64 per block), then plans the selection with the lengths
//! it got back; [`compress`] checks that the length it finds is the one it was
//! planned with. Which blocks an integer index reads is data too: [`index_blocks`]
//! tells, per index chunk, how many of its indices fall in each block of the axis
//! (and the first out of bounds), so [`gather`] reads only the blocks it needs.

use crate::array::{try_filled, try_vec, ArrayData};
use crate::huge_alloc::ZeroIsValid;
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
    let mask = mask.as_standard_layout();
    let mask = mask
        .as_slice()
        .ok_or_else(|| KernelError::new("internal error: a mask chunk is not contiguous"))?;
    let found = mask.iter().filter(|&&b| b).count();
    if found != expected {
        return Err(KernelError::new(format!(
            "internal error: a mask block selects {found} elements, planned for {expected}"
        )));
    }
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + k..].iter().product();
    let mut out_shape = shape[..axis].to_vec();
    out_shape.push(expected);
    out_shape.extend_from_slice(&shape[axis + k..]);
    let slabs = Slabs {
        outer,
        inner,
        mask,
        shape: &out_shape,
    };
    Ok(match x {
        ArrayData::Bool(a) => ArrayData::Bool(slabs.take(a)?),
        ArrayData::Int8(a) => ArrayData::Int8(slabs.take(a)?),
        ArrayData::Int16(a) => ArrayData::Int16(slabs.take(a)?),
        ArrayData::Int32(a) => ArrayData::Int32(slabs.take(a)?),
        ArrayData::Int64(a) => ArrayData::Int64(slabs.take(a)?),
        ArrayData::UInt8(a) => ArrayData::UInt8(slabs.take(a)?),
        ArrayData::UInt16(a) => ArrayData::UInt16(slabs.take(a)?),
        ArrayData::UInt32(a) => ArrayData::UInt32(slabs.take(a)?),
        ArrayData::UInt64(a) => ArrayData::UInt64(slabs.take(a)?),
        ArrayData::Float16(a) => ArrayData::Float16(slabs.take(a)?),
        ArrayData::Float32(a) => ArrayData::Float32(slabs.take(a)?),
        ArrayData::Float64(a) => ArrayData::Float64(slabs.take(a)?),
        ArrayData::Complex64(a) => ArrayData::Complex64(slabs.take(a)?),
        ArrayData::Complex128(a) => ArrayData::Complex128(slabs.take(a)?),
    })
}

/// Where the selected slabs of a chunk are: `outer` runs of one slab of `inner`
/// elements per mask element, of which those where the mask is true are kept.
struct Slabs<'a> {
    outer: usize,
    inner: usize,
    mask: &'a [bool],
    shape: &'a [usize],
}

impl Slabs<'_> {
    fn take<T: ZeroIsValid>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>, KernelError> {
        let standard = a.as_standard_layout();
        let values = standard
            .as_slice()
            .ok_or_else(|| KernelError::new("internal error: a chunk is not contiguous"))?;
        let len: usize = self.shape.iter().product();
        let inner = self.inner;
        let run = self.mask.len() * inner;
        if inner == 1 {
            // One element per mask element (`x[x > 0]`): every element is written
            // and the position advances only past kept ones, so a mask that is
            // true at random costs no mispredicted branches. The one spare slot
            // takes the writes after the last kept element.
            let mut out = try_filled(len + 1, T::ZERO_BITS)?;
            let mut at = 0;
            for block in values.chunks_exact(run.max(1)).take(self.outer) {
                for (&v, &keep) in block.iter().zip(self.mask) {
                    out[at] = v;
                    at += usize::from(keep);
                }
            }
            out.truncate(len);
            return ArrayD::from_shape_vec(IxDyn(self.shape), out)
                .map_err(|e| KernelError::new(format!("internal error: {e}")));
        }
        let mut out = try_vec(len)?;
        for block in values.chunks_exact(run.max(1)).take(self.outer) {
            for (slab, &keep) in block.chunks_exact(inner).zip(self.mask) {
                if keep {
                    out.extend_from_slice(slab);
                }
            }
        }
        ArrayD::from_shape_vec(IxDyn(self.shape), out)
            .map_err(|e| KernelError::new(format!("internal error: {e}")))
    }
}

/// Per block of an axis of length `len` whose blocks start at `starts` (ascending,
/// the first 0): how many of the chunk's indices fall in it (negative indices count
/// from the end, as NumPy's), then how many are out of bounds, then the first of
/// those (0 when none): a `(1, blocks + 2)` int64 array.
pub fn index_blocks(
    idx: &ArrayData,
    starts: &[usize],
    len: usize,
) -> Result<ArrayData, KernelError> {
    let values = index_values(idx)?;
    let mut row = vec![0i64; starts.len() + 2];
    let mut first_bad = None;
    for &v in values.iter() {
        match wrap_index(v, len) {
            Some(w) => row[starts.partition_point(|&s| s <= w) - 1] += 1,
            None => {
                row[starts.len()] += 1;
                first_bad.get_or_insert(v);
            }
        }
    }
    row[starts.len() + 1] = first_bad.unwrap_or(0);
    Ok(ArrayData::Int64(
        ArrayD::from_shape_vec(IxDyn(&[1, starts.len() + 2]), row)
            .map_err(|e| KernelError::new(format!("internal error: {e}")))?,
    ))
}

/// `x[..., idx, ...]` along `axis` for a 1-D index chunk: `blocks` are the chunks of
/// x along that axis the indices fall in, starting at `starts` (ascending), of an
/// axis of length `len`; the output has the blocks' shape with that axis replaced
/// by the index's length.
pub fn gather(
    idx: &ArrayData,
    blocks: &[&ArrayData],
    starts: &[usize],
    axis: usize,
    len: usize,
) -> Result<ArrayData, KernelError> {
    let values = index_values(idx)?;
    let Some(first) = blocks.first() else {
        return Err(KernelError::new("internal error: a gather reads no block"));
    };
    if blocks.len() != starts.len() || first.ndim() <= axis {
        return Err(KernelError::new(format!(
            "internal error: {} blocks with {} starts along axis {axis}",
            blocks.len(),
            starts.len()
        )));
    }
    let mut out_shape = first.shape().to_vec();
    out_shape[axis] = values.len();
    // Where each index's slab is: (block, position in it).
    let mut at = Vec::with_capacity(values.len());
    for &v in values.iter() {
        let w = wrap_index(v, len).ok_or_else(|| {
            KernelError::new(format!(
                "index {v} is out of bounds for axis {axis} with size {len}"
            ))
        })?;
        let b = starts.partition_point(|&s| s <= w).saturating_sub(1);
        let position = w - starts[b];
        if position >= blocks[b].shape()[axis] {
            return Err(KernelError::new(format!(
                "internal error: index {v} is in no block read by its gather"
            )));
        }
        at.push((b, position));
    }
    let outer: usize = out_shape[..axis].iter().product();
    let inner: usize = out_shape[axis + 1..].iter().product();
    macro_rules! take {
        ($variant:ident) => {{
            let parts = blocks
                .iter()
                .map(|block| match block {
                    ArrayData::$variant(a) => Ok(a.as_standard_layout()),
                    _ => Err(KernelError::new(
                        "internal error: gather blocks differ in dtype",
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let slices = parts
                .iter()
                .map(|a| {
                    a.as_slice().ok_or_else(|| {
                        KernelError::new("internal error: a block is not contiguous")
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = try_vec(outer * values.len() * inner)?;
            for o in 0..outer {
                for &(b, position) in &at {
                    let rows = parts[b].shape()[axis];
                    let start = (o * rows + position) * inner;
                    out.extend_from_slice(&slices[b][start..start + inner]);
                }
            }
            ArrayData::$variant(
                ArrayD::from_shape_vec(IxDyn(&out_shape), out)
                    .map_err(|e| KernelError::new(format!("internal error: {e}")))?,
            )
        }};
    }
    Ok(match first {
        ArrayData::Bool(_) => take!(Bool),
        ArrayData::Int8(_) => take!(Int8),
        ArrayData::Int16(_) => take!(Int16),
        ArrayData::Int32(_) => take!(Int32),
        ArrayData::Int64(_) => take!(Int64),
        ArrayData::UInt8(_) => take!(UInt8),
        ArrayData::UInt16(_) => take!(UInt16),
        ArrayData::UInt32(_) => take!(UInt32),
        ArrayData::UInt64(_) => take!(UInt64),
        ArrayData::Float16(_) => take!(Float16),
        ArrayData::Float32(_) => take!(Float32),
        ArrayData::Float64(_) => take!(Float64),
        ArrayData::Complex64(_) => take!(Complex64),
        ArrayData::Complex128(_) => take!(Complex128),
    })
}

/// An index chunk's values as int64.
fn index_values(idx: &ArrayData) -> Result<std::borrow::Cow<'_, [i64]>, KernelError> {
    match idx {
        ArrayData::Int64(a) => Ok(match a.as_slice_memory_order() {
            Some(values) => std::borrow::Cow::Borrowed(values),
            None => std::borrow::Cow::Owned(a.iter().copied().collect()),
        }),
        other if other.dtype().is_int() => Ok(std::borrow::Cow::Owned(
            crate::kernels::int_values_saturating(other),
        )),
        other => Err(KernelError::new(format!(
            "internal error: indexing with a {} chunk",
            other.dtype()
        ))),
    }
}

/// NumPy's position of index `v` on an axis of length `len` (negative counts from
/// the end); `None` when out of bounds.
fn wrap_index(v: i64, len: usize) -> Option<usize> {
    let len = len as i64;
    let w = if v < 0 { v + len } else { v };
    (0..len).contains(&w).then_some(w as usize)
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
    fn gathers_from_the_blocks_it_is_given() {
        // x = arange(10) in blocks [0..4), [4..7), [7..10); indices 8, -9, 5, 8.
        let block = |range: std::ops::Range<i64>| {
            ArrayData::Int64(
                ArrayD::from_shape_vec(IxDyn(&[range.clone().count()]), range.collect()).unwrap(),
            )
        };
        let idx = ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[4]), vec![8, -9, 5, 8]).unwrap());
        let counts = index_blocks(&idx, &[0, 4, 7], 10).unwrap();
        assert_eq!(counts.shape(), &[1, 5]);
        assert_eq!(
            (0..5)
                .map(|i| counts.get_flat(i).unwrap())
                .collect::<Vec<_>>(),
            [1i64, 1, 2, 0, 0].map(crate::Scalar::Int64)
        );
        let (a, b, c) = (block(0..4), block(4..7), block(7..10));
        let out = gather(&idx, &[&a, &b, &c], &[0, 4, 7], 0, 10).unwrap();
        assert_eq!(
            out,
            ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[4]), vec![8, 1, 5, 8]).unwrap())
        );
        let bad = ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[2]), vec![3, 10]).unwrap());
        let counts = index_blocks(&bad, &[0, 4, 7], 10).unwrap();
        assert_eq!(counts.get_flat(3), Some(crate::Scalar::Int64(1)));
        assert_eq!(counts.get_flat(4), Some(crate::Scalar::Int64(10)));
    }

    #[test]
    fn a_length_other_than_planned_is_an_error() {
        let x = ArrayData::Float64(ArrayD::zeros(IxDyn(&[3])));
        let mask = bools(&[3], &[true, false, true]);
        assert!(compress(&x, &mask, 0, 1).is_err());
        assert!(compress(&x, &bools(&[2], &[true, true]), 0, 2).is_err());
    }
}
