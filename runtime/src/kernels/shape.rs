//! Shape kernels on one chunk (or, for `concatenate`, several): transpose, C-order
//! reshape, expand/squeeze axes, materialized broadcasting, basic slicing with any
//! step, and concatenation (which also serves rechunk merges). They move values
//! without arithmetic and always return owned, C-contiguous arrays, so downstream
//! kernels can assume contiguity. Arguments are validated here rather than trusted,
//! because ndarray panics on the mistakes a planning bug would make.

use crate::array::ArrayData;
use crate::kernels::reduce::Element;
use crate::kernels::KernelError;
use crate::with_array;
use ndarray::{ArrayD, ArrayViewD, Axis, IxDyn, SliceInfoElem};

/// One item of a basic index, already resolved against the chunk (indices are local).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceItem {
    /// A single position; drops the axis.
    Index(usize),
    /// `len` positions `start, start + step, …` (step may be negative, never zero).
    Range {
        start: usize,
        step: isize,
        len: usize,
    },
    /// A new axis of length 1.
    NewAxis,
}

/// Permutes axes: output axis `i` is input axis `axes[i]`.
pub fn transpose(x: &ArrayData, axes: &[usize]) -> Result<ArrayData, KernelError> {
    let mut seen = vec![false; x.ndim()];
    let is_permutation = axes.len() == x.ndim()
        && axes
            .iter()
            .all(|&axis| axis < seen.len() && !std::mem::replace(&mut seen[axis], true));
    if !is_permutation {
        return Err(KernelError(format!(
            "axes {axes:?} are not a permutation of the {} axes of the array",
            x.ndim()
        )));
    }
    Ok(with_array!(x, a => owned(a.view().permuted_axes(axes))))
}

/// Reshapes in C order to `shape`, which must hold the same number of elements.
pub fn reshape(x: &ArrayData, shape: &[usize]) -> Result<ArrayData, KernelError> {
    if shape.iter().product::<usize>() != x.len() {
        return Err(KernelError(format!(
            "cannot reshape array of size {} into shape {shape:?}",
            x.len()
        )));
    }
    with_array!(x, a => {
        let standard = a.as_standard_layout().into_owned();
        standard
            .into_shape_with_order(IxDyn(shape))
            .map(Element::into_data)
            .map_err(|err| KernelError(format!("cannot reshape into {shape:?}: {err}")))
    })
}

/// Inserts length-1 axes at `axes`, positions in the output (sorted or not, unique).
pub fn expand_dims(x: &ArrayData, axes: &[usize]) -> Result<ArrayData, KernelError> {
    let out_ndim = x.ndim() + axes.len();
    let axes = sorted_unique(axes, out_ndim)?;
    Ok(with_array!(x, a => {
        // Inserting in ascending order makes each position an output position.
        let view = axes.iter().fold(a.view(), |view, &axis| view.insert_axis(Axis(axis)));
        owned(view)
    }))
}

/// Removes the length-1 axes `axes` (explicit; a tiler resolves `axis=None` itself).
pub fn squeeze(x: &ArrayData, axes: &[usize]) -> Result<ArrayData, KernelError> {
    let axes = sorted_unique(axes, x.ndim())?;
    if axes.iter().any(|&axis| x.shape()[axis] != 1) {
        return Err(KernelError(
            "cannot select an axis to squeeze out which has size not equal to one".into(),
        ));
    }
    Ok(with_array!(x, a => {
        let view = axes
            .iter()
            .rev()
            .fold(a.view(), |view, &axis| view.index_axis_move(Axis(axis), 0));
        owned(view)
    }))
}

/// Repeats `x` along broadcast axes into a new array of `shape` (NumPy's rules).
pub fn broadcast_to(x: &ArrayData, shape: &[usize]) -> Result<ArrayData, KernelError> {
    with_array!(x, a => match a.broadcast(IxDyn(shape)) {
        Some(view) => Ok(owned(view)),
        None => Err(KernelError(format!(
            "cannot broadcast an array of shape {:?} to shape {shape:?}",
            a.shape()
        ))),
    })
}

/// Basic indexing of a chunk: items apply to the axes in order (`NewAxis` consumes
/// none), axes past the last item are kept whole.
pub fn slice(x: &ArrayData, items: &[SliceItem]) -> Result<ArrayData, KernelError> {
    let elements = slice_elements(x.shape(), items)?;
    Ok(with_array!(x, a => owned(a.slice(elements.as_slice()))))
}

/// Joins `parts` along `axis`; they must agree in dtype and in every other extent.
pub fn concatenate(parts: &[&ArrayData], axis: usize) -> Result<ArrayData, KernelError> {
    let Some(first) = parts.first() else {
        return Err(KernelError("need at least one array to concatenate".into()));
    };
    if axis >= first.ndim() {
        return Err(KernelError(format!(
            "axis {axis} is out of bounds for array of dimension {}",
            first.ndim()
        )));
    }
    for part in parts {
        let agree = part.dtype() == first.dtype()
            && part.ndim() == first.ndim()
            && (0..first.ndim()).all(|i| i == axis || part.shape()[i] == first.shape()[i]);
        if !agree {
            return Err(KernelError(format!(
                "cannot concatenate {} {:?} with {} {:?} along axis {axis}",
                part.dtype(),
                part.shape(),
                first.dtype(),
                first.shape()
            )));
        }
    }
    with_array!(first, a => concatenate_typed(a, parts, axis))
}

fn concatenate_typed<E: Element>(
    _first: &ArrayD<E>,
    parts: &[&ArrayData],
    axis: usize,
) -> Result<ArrayData, KernelError> {
    let views = parts
        .iter()
        .map(|part| {
            E::from_data(part)
                .map(|array| array.view())
                .ok_or_else(|| KernelError("internal error: concatenate dtype mismatch".into()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let joined = ndarray::concatenate(Axis(axis), &views)
        .map_err(|err| KernelError(format!("cannot concatenate: {err}")))?;
    Ok(E::into_data(into_standard(joined)))
}

/// An owned, C-contiguous copy of a view.
fn owned<E: Element>(view: ArrayViewD<'_, E>) -> ArrayData {
    E::into_data(view.as_standard_layout().into_owned())
}

/// `array` itself if already C-contiguous, else a C-contiguous copy.
fn into_standard<E: Clone>(array: ArrayD<E>) -> ArrayD<E> {
    if array.is_standard_layout() {
        array
    } else {
        array.as_standard_layout().into_owned()
    }
}

fn sorted_unique(axes: &[usize], ndim: usize) -> Result<Vec<usize>, KernelError> {
    let mut sorted = axes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != axes.len() {
        return Err(KernelError(format!("repeated axis in {axes:?}")));
    }
    match sorted.last() {
        Some(&axis) if axis >= ndim => Err(KernelError(format!(
            "axis {axis} is out of bounds for array of dimension {ndim}"
        ))),
        _ => Ok(sorted),
    }
}

/// Checks `items` against `shape` and translates them to ndarray's slice elements,
/// one per input axis (plus new axes).
fn slice_elements(shape: &[usize], items: &[SliceItem]) -> Result<Vec<SliceInfoElem>, KernelError> {
    let consumed = items
        .iter()
        .filter(|item| **item != SliceItem::NewAxis)
        .count();
    if consumed > shape.len() {
        return Err(KernelError(format!(
            "too many indices for array: array is {}-dimensional, but {consumed} were indexed",
            shape.len()
        )));
    }
    let mut elements = Vec::with_capacity(items.len() + shape.len() - consumed);
    let mut axis = 0;
    for &item in items {
        elements.push(match item {
            SliceItem::NewAxis => SliceInfoElem::NewAxis,
            SliceItem::Index(index) => {
                let extent = shape[axis];
                axis += 1;
                if index >= extent {
                    return Err(KernelError(format!(
                        "index {index} is out of bounds for axis {} with size {extent}",
                        axis - 1
                    )));
                }
                SliceInfoElem::Index(index as isize)
            }
            SliceItem::Range { start, step, len } => {
                let extent = shape[axis];
                axis += 1;
                range_element(start, step, len, extent)?
            }
        });
    }
    elements.extend((axis..shape.len()).map(|_| SliceInfoElem::from(..)));
    Ok(elements)
}

/// ndarray's slice for positions `start + j * step`, `j < len`. ndarray takes the
/// half-open range between the extreme positions and walks it from the far end when
/// the step is negative.
fn range_element(
    start: usize,
    step: isize,
    len: usize,
    extent: usize,
) -> Result<SliceInfoElem, KernelError> {
    if step == 0 {
        return Err(KernelError("slice step cannot be zero".into()));
    }
    if len == 0 {
        return Ok(SliceInfoElem::Slice {
            start: 0,
            end: Some(0),
            step: 1,
        });
    }
    let last = start as i128 + (len as i128 - 1) * step as i128;
    let in_bounds = |position: i128| (0..extent as i128).contains(&position);
    if !in_bounds(start as i128) || !in_bounds(last) {
        return Err(KernelError(format!(
            "slice of {len} positions from {start} by {step} overruns an axis of size {extent}"
        )));
    }
    // Both ends lie in 0..extent, so they fit in isize.
    let (low, high) = if step > 0 {
        (start as i128, last)
    } else {
        (last, start as i128)
    };
    Ok(SliceInfoElem::Slice {
        start: low as isize,
        end: Some(high as isize + 1),
        step,
    })
}

#[cfg(test)]
mod tests;
