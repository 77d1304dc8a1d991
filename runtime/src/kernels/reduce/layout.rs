//! Where a chunk's elements go in a reduction: which axes are reduced, the keepdims
//! shape of the partial result, the chunk's elements regrouped as one contiguous row
//! per output position, and the translation of a position inside a row to the global
//! index that `argmax`/`argmin` report.

use crate::kernels::KernelError;
use ndarray::ArrayD;
use std::borrow::Cow;

/// The geometry of reducing one chunk over a set of axes.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ReduceLayout {
    /// The reduced axes, ascending and unique.
    pub axes: Vec<usize>,
    /// The chunk's shape with every reduced axis set to 1.
    pub keepdims_shape: Vec<usize>,
    /// How many output positions there are (the product of the kept extents).
    pub outputs: usize,
    /// How many input elements fold into each output position.
    pub per_output: usize,
}

impl ReduceLayout {
    pub fn new(shape: &[usize], axes: &[usize]) -> Result<ReduceLayout, KernelError> {
        let axes = normalize_axes(axes, shape.len())?;
        let mut keepdims_shape = shape.to_vec();
        let mut per_output = 1;
        for &axis in &axes {
            per_output *= shape[axis];
            keepdims_shape[axis] = 1;
        }
        Ok(ReduceLayout {
            outputs: keepdims_shape.iter().product(),
            axes,
            keepdims_shape,
            per_output,
        })
    }

    /// The chunk's elements with the kept axes first and the reduced axes last, both in
    /// C order, so that output position `i` reads the contiguous run
    /// `rows[i * per_output..(i + 1) * per_output]`. Borrows when the chunk is already
    /// laid out that way (e.g. reducing trailing axes of a C-contiguous chunk).
    pub fn rows<'a, T: Clone>(&self, array: &'a ArrayD<T>) -> Cow<'a, [T]> {
        let ndim = array.ndim();
        let kept = (0..ndim).filter(|axis| !self.axes.contains(axis));
        let order: Vec<usize> = kept.chain(self.axes.iter().copied()).collect();
        let grouped = array.view().permuted_axes(order);
        match grouped.to_slice() {
            Some(slice) => Cow::Borrowed(slice),
            None => Cow::Owned(grouped.iter().cloned().collect()),
        }
    }

    /// Splits `rows` (as returned by [`ReduceLayout::rows`]) into one run per output.
    pub fn each_row<'a, T>(&self, rows: &'a [T]) -> impl Iterator<Item = &'a [T]> + 'a {
        let width = self.per_output;
        (0..self.outputs).map(move |i| &rows[i * width..(i + 1) * width])
    }
}

fn normalize_axes(axes: &[usize], ndim: usize) -> Result<Vec<usize>, KernelError> {
    let mut sorted = axes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != axes.len() {
        return Err(KernelError(format!(
            "repeated axis in reduction axes {axes:?}"
        )));
    }
    if let Some(&axis) = sorted.iter().find(|&&axis| axis >= ndim) {
        return Err(KernelError(format!(
            "axis {axis} is out of bounds for array of dimension {ndim}"
        )));
    }
    Ok(sorted)
}

/// Maps a position inside one output's run to its index into the whole tensor's
/// reduced axes raveled in C order (what NumPy's `argmax` returns).
pub(super) struct GlobalIndexer {
    chunk_extents: Vec<usize>,
    global_extents: Vec<usize>,
    offsets: Vec<usize>,
}

impl GlobalIndexer {
    pub fn new(
        layout: &ReduceLayout,
        chunk_shape: &[usize],
        global_shape: &[usize],
        chunk_offset: &[usize],
    ) -> Result<GlobalIndexer, KernelError> {
        let ndim = chunk_shape.len();
        if global_shape.len() != ndim || chunk_offset.len() != ndim {
            return Err(KernelError(format!(
                "chunk of shape {chunk_shape:?} cannot sit at offset {chunk_offset:?} \
                 in a tensor of shape {global_shape:?}"
            )));
        }
        let fits = (0..ndim).all(|axis| {
            chunk_offset[axis]
                .checked_add(chunk_shape[axis])
                .is_some_and(|end| end <= global_shape[axis])
        });
        if !fits {
            return Err(KernelError(format!(
                "chunk of shape {chunk_shape:?} at offset {chunk_offset:?} overruns \
                 the tensor of shape {global_shape:?}"
            )));
        }
        let pick = |values: &[usize]| layout.axes.iter().map(|&a| values[a]).collect();
        Ok(GlobalIndexer {
            chunk_extents: pick(chunk_shape),
            global_extents: pick(global_shape),
            offsets: pick(chunk_offset),
        })
    }

    /// The global index of run position `local`; 0 for a chunk with no elements along
    /// the reduced axes, whose state is marked empty anyway.
    pub fn global_index(&self, local: usize) -> i64 {
        let mut remaining = local;
        let mut coords = vec![0; self.chunk_extents.len()];
        for (coord, &extent) in coords.iter_mut().zip(&self.chunk_extents).rev() {
            let Some(within) = remaining.checked_rem(extent) else {
                return 0;
            };
            *coord = within;
            remaining /= extent;
        }
        let mut index: i64 = 0;
        for ((coord, offset), &extent) in coords.iter().zip(&self.offsets).zip(&self.global_extents)
        {
            index = index * extent as i64 + (coord + offset) as i64;
        }
        index
    }
}
