//! Reductions as trees, for a tiler that splits a tensor into chunks: each chunk is
//! reduced to a partial [`ReduceState`] by [`reduce_map`], any number of states covering
//! different blocks of the reduced axes are merged by [`reduce_combine`] (with any
//! fan-in, in any tree shape), and [`reduce_finish`] turns the root state into NumPy's
//! result. Integer, boolean, max/min and arg results do not depend on the tree at all;
//! float sums and means differ from a single-chunk result only by rounding.
//!
//! `var` and `std` are two trees, as NumPy's `_var` is two passes: the tiler reduces
//! the mean first (a `mean` tree finished with keepdims), then sums `(x - mean)²` with
//! a `sum` tree whose root [`reduce_finish`] divides as `var`/`std`. So a map or
//! combine of `var`/`std` itself is an internal error.

mod element;
mod finish;
mod layout;
mod map;
mod merge;
mod rows;
#[cfg(test)]
mod rows_tests;
mod spill;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree_tests;

pub(in crate::kernels) use element::{with_element_type, Accumulator, Element};
pub use rows::reduces_by_rows;
pub use spill::{read_state, write_state};

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::KernelError;
use crate::ops::{ReduceOp, Reduction};
use layout::{GlobalIndexer, ReduceLayout};
use ndarray::ArrayD;

/// A partial reduction of one or more chunks over the reduced axes. Its arrays have
/// the keepdims shape: the chunk's shape with every reduced axis of length 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceState {
    op: ReduceOp,
    input_dtype: DType,
    /// The reduced axes, ascending.
    axes: Vec<usize>,
    keepdims_shape: Vec<usize>,
    /// How many input elements have been folded into each output position (the same
    /// for every position, since a chunk is a box).
    count: usize,
    partial: Partial,
}

/// The per-op partial result. Every array has the state's keepdims shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Partial {
    /// `sum`, `prod` (in the result dtype) and `mean` (the sum, in the mean's dtype).
    Total(ArrayData),
    /// `max`, `min`: the extreme so far, in the input dtype; meaningless while
    /// `count == 0`.
    Extreme(ArrayData),
    /// `all`, `any`.
    Truth(ArrayD<bool>),
    /// `count_nonzero`.
    Count(ArrayD<i64>),
    /// `argmax`, `argmin`: the winning value (input dtype) and its global index into
    /// the reduced axes raveled in C order; meaningless while `count == 0`.
    Arg {
        value: ArrayData,
        index: ArrayD<i64>,
    },
}

impl ReduceState {
    /// A map state computed outside this module (by JIT code), with the same fields
    /// [`reduce_map`] would give: `axes` ascending, `count` elements per output.
    pub fn from_parts(
        op: ReduceOp,
        input_dtype: DType,
        axes: Vec<usize>,
        keepdims_shape: Vec<usize>,
        count: usize,
        partial: Partial,
    ) -> ReduceState {
        ReduceState {
            op,
            input_dtype,
            axes,
            keepdims_shape,
            count,
            partial,
        }
    }

    pub fn op(&self) -> ReduceOp {
        self.op
    }

    /// The dtype of the tensor being reduced.
    pub fn input_dtype(&self) -> DType {
        self.input_dtype
    }

    /// The reduced axes, ascending.
    pub fn axes(&self) -> &[usize] {
        &self.axes
    }

    /// The shape of the partial result: the reduced axes have length 1.
    pub fn keepdims_shape(&self) -> &[usize] {
        &self.keepdims_shape
    }

    /// How many input elements each output position has seen so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The partial result itself (JIT code reads one pass's totals out of it).
    pub fn into_partial(self) -> Partial {
        self.partial
    }

    /// Bytes of element data held (for memory accounting and transfer costs).
    pub fn nbytes(&self) -> usize {
        match &self.partial {
            Partial::Total(data) | Partial::Extreme(data) => data.nbytes(),
            Partial::Truth(truth) => truth.len(),
            Partial::Count(count) => count.len() * 8,
            Partial::Arg { value, index } => value.nbytes() + index.len() * 8,
        }
    }
}

/// Whether [`reduce_map`] of `op` reads the chunk's place in the tensor (to report
/// or to order by global indices); the planner gives the others no offset, so the
/// map kernels of a step's chunks are alike.
pub fn reads_chunk_offset(op: ReduceOp) -> bool {
    matches!(
        op,
        ReduceOp::ArgMax
            | ReduceOp::ArgMin
            | ReduceOp::NanMax
            | ReduceOp::NanMin
            | ReduceOp::NanArgMax
            | ReduceOp::NanArgMin
    )
}

/// Reduces one chunk `x` over `axes` (chunk axes; any order, no repeats). `global_shape`
/// and `chunk_offset` place the chunk in the whole tensor; only `argmax`/`argmin` read
/// them (to report global indices), other ops accept empty slices.
pub fn reduce_map(
    red: Reduction,
    x: &ArrayData,
    axes: &[usize],
    global_shape: &[usize],
    chunk_offset: &[usize],
) -> Result<ReduceState, KernelError> {
    let layout = ReduceLayout::new(x.shape(), axes)?;
    let indexer = if reads_chunk_offset(red.op) {
        Some(GlobalIndexer::new(
            &layout,
            x.shape(),
            global_shape,
            chunk_offset,
        )?)
    } else {
        None
    };
    let walk = rows::RowWalk::new(x.shape(), &layout.axes);
    let partial = with_element_type!(x.dtype(), E => {
        let array = E::from_data(x).ok_or_else(|| dtype_mismatch(x.dtype()))?;
        match &walk {
            Some(walk) => {
                // The JIT reads the same copy, so both walk the rows in one order.
                let standard = array.as_standard_layout();
                let data = standard.as_slice().ok_or_else(|| {
                    KernelError("internal error: a standard-layout copy is not contiguous".into())
                })?;
                let keepdims = &layout.keepdims_shape;
                rows::map_rows::<E>(red.op, data, walk, keepdims, indexer.as_ref())?
            }
            None => map::map_partial::<E>(red.op, array, &layout, indexer.as_ref())?,
        }
    });
    Ok(ReduceState {
        op: red.op,
        input_dtype: x.dtype(),
        count: layout.per_output,
        axes: layout.axes,
        keepdims_shape: layout.keepdims_shape,
        partial,
    })
}

/// Merges the states of chunks that cover different blocks of the reduced axes and the
/// same block of the kept axes, so merging is elementwise over the keepdims shape.
/// Parts may come in any order and the result may be merged again; pass them in chunk
/// order anyway, since float sums (and which of `-0.0`/`0.0` a `max` keeps) follow it.
/// Turns chunk-local C-order flat positions (of a chunk of `chunk_shape` at
/// `chunk_offset` in a tensor of `global_shape`) into the indices `argmax`/`argmin`
/// report: into the whole tensor's reduced `axes`, raveled in C order. JIT arg tails
/// find positions this way; `i64::MAX` (no position: an empty chunk) becomes 0.
pub fn arg_global_indices(
    chunk_shape: &[usize],
    axes: &[usize],
    global_shape: &[usize],
    chunk_offset: &[usize],
    positions: &mut [i64],
) -> Result<(), KernelError> {
    let layout = ReduceLayout::new(chunk_shape, axes)?;
    let indexer = GlobalIndexer::new(&layout, chunk_shape, global_shape, chunk_offset)?;
    let mut coords = vec![0usize; chunk_shape.len()];
    for position in positions.iter_mut() {
        let Ok(mut flat) = usize::try_from(*position) else {
            return Err(KernelError(
                "internal error: a negative arg position".into(),
            ));
        };
        if *position == i64::MAX {
            *position = 0;
            continue;
        }
        for (coord, &extent) in coords.iter_mut().zip(chunk_shape).rev() {
            *coord = flat % extent.max(1);
            flat /= extent.max(1);
        }
        let run_position = layout
            .axes
            .iter()
            .fold(0, |run, &axis| run * chunk_shape[axis] + coords[axis]);
        *position = indexer.global_index(run_position);
    }
    Ok(())
}

pub fn reduce_combine(red: Reduction, parts: &[&ReduceState]) -> Result<ReduceState, KernelError> {
    let Some(first) = parts.first() else {
        return Err(KernelError("reduce_combine needs at least one part".into()));
    };
    for part in parts {
        let compatible = part.op == red.op
            && part.input_dtype == first.input_dtype
            && part.axes == first.axes
            && part.keepdims_shape == first.keepdims_shape;
        if !compatible {
            return Err(KernelError(format!(
                "cannot merge a {} state over axes {:?} of {} with shape {:?} into a {} \
                 state over axes {:?} of {} with shape {:?}",
                part.op.name(),
                part.axes,
                part.input_dtype,
                part.keepdims_shape,
                red.op.name(),
                first.axes,
                first.input_dtype,
                first.keepdims_shape,
            )));
        }
    }
    let count = parts.iter().map(|part| part.count).sum();
    let partial = with_element_type!(first.input_dtype, E => merge::merge_partials::<E>(parts)?);
    Ok(ReduceState {
        op: first.op,
        input_dtype: first.input_dtype,
        axes: first.axes.clone(),
        keepdims_shape: first.keepdims_shape.clone(),
        count,
        partial,
    })
}

/// NumPy's result from a fully merged state, with the reduced axes dropped unless
/// `keepdims`. `var`/`std` finish a `sum` state of squared deviations from the mean.
/// Fails, with NumPy's message, for `max`/`min`/`argmax`/`argmin` over reduced axes
/// that hold no elements.
pub fn reduce_finish(
    red: Reduction,
    state: &ReduceState,
    keepdims: bool,
) -> Result<ArrayData, KernelError> {
    let finishes = match red.op {
        ReduceOp::Var | ReduceOp::Std => state.op == ReduceOp::Sum && state.input_dtype.is_float(),
        op => op == state.op,
    };
    if !finishes {
        return Err(KernelError(format!(
            "cannot finish a {} state as {}",
            state.op.name(),
            red.op.name()
        )));
    }
    let result =
        with_element_type!(state.input_dtype, E => finish::finish_partial::<E>(red, state)?);
    // States of ints are kept in int64 or float64 whatever the result's width.
    let result_dtype = red.op.result_dtype(state.input_dtype);
    let result = if result.dtype() == result_dtype {
        result
    } else {
        crate::kernels::cast(&result, result_dtype)
    };
    if keepdims {
        Ok(result)
    } else {
        finish::drop_axes(result, &state.axes)
    }
}

/// `var`/`std` have no state of their own (see the module doc).
pub(super) fn two_pass_moments(op: ReduceOp) -> KernelError {
    KernelError(format!(
        "internal error: {} is reduced as a mean and a sum of squared deviations, \
         not by its own map or combine",
        op.name()
    ))
}

fn dtype_mismatch(dtype: DType) -> KernelError {
    KernelError(format!(
        "internal error: array data does not match dtype {dtype}"
    ))
}
