//! How a chunk's elements map onto calls of a row function: the output (or reduced
//! input) shape, every leaf's strides over it (0 along broadcast axes), axes merged
//! wherever every operand is contiguous across them, and the innermost axis as the
//! row. Pure shape arithmetic, shared by the planner (to compile the right variant
//! ahead of time) and the run-time driver.

use super::error::JitError;
use super::graph::{JitGraph, LeafKind};
use super::key::{Mode, Variant};
use super::leaves::LeafInstance;
use crate::kernels::broadcast_shape;

/// One leaf's geometry: its shape (right-aligned against the output's) and the
/// strides of the index it reads by (its own buffer, or its whole tensor's C order).
#[derive(Clone, Debug, PartialEq)]
pub struct LeafGeometry {
    pub shape: Vec<usize>,
    pub index_strides: Vec<usize>,
    /// The index of the leaf's first element.
    pub base: usize,
    /// Never varies (a constant): treated as broadcast along every axis.
    pub fixed: bool,
}

impl LeafGeometry {
    /// A C-contiguous buffer of `shape`.
    pub fn buffer(shape: &[usize]) -> LeafGeometry {
        LeafGeometry {
            shape: shape.to_vec(),
            index_strides: c_strides(shape),
            base: 0,
            fixed: false,
        }
    }

    /// A creation op's chunk of `shape` at `offset` of a tensor of `global_shape`.
    /// Compiled code reads it by its chunk-local C-order index, like a buffer (its
    /// block fill maps that to the global index), so its rows merge like a buffer's
    /// whatever its place in the tensor.
    pub fn indexed(global_shape: &[usize], offset: &[usize], shape: &[usize]) -> LeafGeometry {
        debug_assert_eq!(global_shape.len(), offset.len());
        LeafGeometry::buffer(shape)
    }

    /// A chunk of `shape` at `offset`, read in place inside a C-order buffer holding
    /// the whole tensor of `global_shape` (a mapped file): the tensor's strides, and
    /// the chunk's first element as the base.
    pub fn within(global_shape: &[usize], offset: &[usize], shape: &[usize]) -> LeafGeometry {
        let strides = c_strides(global_shape);
        let base = offset.iter().zip(&strides).map(|(o, s)| o * s).sum();
        LeafGeometry {
            shape: shape.to_vec(),
            index_strides: strides,
            base,
            fixed: false,
        }
    }

    /// The geometry of one leaf of a kernel instance; `buffer_shape` gives the shape
    /// of the next argument chunk, asked only for a buffer leaf.
    pub fn of_leaf<'a>(
        leaf: &LeafInstance,
        buffer_shape: impl FnOnce() -> Result<&'a [usize], JitError>,
    ) -> Result<LeafGeometry, JitError> {
        Ok(match leaf {
            LeafInstance::Buffer => LeafGeometry::buffer(buffer_shape()?),
            LeafInstance::Constant { shape, .. } => LeafGeometry::constant(shape),
            LeafInstance::Indexed {
                global_shape,
                offset,
                shape,
                ..
            } => LeafGeometry::indexed(global_shape, offset, shape),
            LeafInstance::Mapped {
                global_shape,
                offset,
                shape,
                ..
            } => LeafGeometry::within(global_shape, offset, shape),
        })
    }

    pub fn constant(shape: &[usize]) -> LeafGeometry {
        LeafGeometry {
            shape: shape.to_vec(),
            index_strides: vec![0; shape.len()],
            base: 0,
            fixed: true,
        }
    }
}

/// Rows one call of an `AccumulateRow` kernel folds in turn when the axis just outside
/// the row is reduced: each output element's accumulator stays in a register across
/// them, which quarters the accumulator's loads and stores and keeps four input
/// streams in flight (a chunk of a wide file reads rows of a few KiB apart). The folds
/// are the ones one call per row makes, in the same order, so the bits are the same.
pub const ROW_GROUP: usize = 4;

/// The rows of one chunk.
#[derive(Clone, Debug, PartialEq)]
pub struct RowLayout {
    /// The root's shape (the stored output, or the input of the reduction).
    pub shape: Vec<usize>,
    /// Merged axes: the last is the row, the others are walked by the caller.
    pub extents: Vec<usize>,
    /// Per leaf, per merged axis, in elements of its index.
    pub leaf_strides: Vec<Vec<usize>>,
    /// Per merged axis, in elements of the output (or accumulator) array.
    pub out_strides: Vec<usize>,
    /// The element of the output array where the chunk's first element goes (0 but
    /// for an output written in place into a larger array).
    pub out_base: usize,
    pub variant: Variant,
    /// Some reduced axis is walked outside the row, so an output position's run is
    /// split over several rows.
    pub reduced_outside_row: bool,
}

impl RowLayout {
    /// The row length.
    pub fn row_len(&self) -> usize {
        self.extents.last().copied().unwrap_or(1)
    }

    /// How many elements the root has.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This layout with its rows grouped by [`ROW_GROUP`] where that applies: rows
    /// accumulated into kept axes, the axis just outside the row reduced and at least a
    /// group long, and no leaf filled by index (those are filled a row at a time).
    pub fn grouped(mut self, graph: &JitGraph) -> RowLayout {
        let outside = self.extents.len().checked_sub(2);
        let groups = outside
            .is_some_and(|axis| self.out_strides[axis] == 0 && self.extents[axis] >= ROW_GROUP);
        if self.variant.mode == Mode::AccumulateRow
            && groups
            && graph
                .leaves()
                .iter()
                .all(|&(kind, _)| kind != LeafKind::Indexed)
        {
            self.variant.rows = ROW_GROUP;
        }
        self
    }

    /// The axis of `extents` whose rows a grouped call takes together.
    pub fn group_axis(&self) -> Option<usize> {
        (self.variant.rows > 1).then(|| self.extents.len() - 2)
    }
}

/// C-order strides of `shape`, in elements.
pub fn c_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for axis in (0..shape.len().saturating_sub(1)).rev() {
        strides[axis] = strides[axis + 1] * shape[axis + 1];
    }
    strides
}

/// The shape a chunk whose leaves have `leaves` geometry computes (before any
/// reduction): their broadcast shape.
pub fn root_shape(leaves: &[LeafGeometry]) -> Result<Vec<usize>, JitError> {
    leaves
        .iter()
        .try_fold(Vec::new(), |shape, leaf| {
            broadcast_shape(&shape, &leaf.shape)
        })
        .ok_or_else(|| JitError::from("internal error: JIT leaves do not broadcast"))
}

/// Lays out a chunk whose leaves have `leaves` geometry, reduced over `reduce_axes`
/// (axes of the broadcast shape) when given, into a C-order output of its own.
pub fn row_layout(
    leaves: &[LeafGeometry],
    reduce_axes: Option<&[usize]>,
) -> Result<RowLayout, JitError> {
    layout_rows(leaves, reduce_axes, None)
}

/// Lays out an element-wise chunk whose output is written in place at `out` (a
/// region of a larger C-order array, as [`LeafGeometry::within`] places it): rows
/// follow the larger array's strides, starting at its base.
pub fn row_layout_into(leaves: &[LeafGeometry], out: &LeafGeometry) -> Result<RowLayout, JitError> {
    layout_rows(leaves, None, Some(out))
}

fn layout_rows(
    leaves: &[LeafGeometry],
    reduce_axes: Option<&[usize]>,
    out: Option<&LeafGeometry>,
) -> Result<RowLayout, JitError> {
    let shape = root_shape(leaves)?;
    let ndim = shape.len();
    let reduced: Vec<bool> = (0..ndim)
        .map(|axis| reduce_axes.is_some_and(|axes| axes.contains(&axis)))
        .collect();
    let out_strides = match (reduce_axes, out) {
        (None, Some(out)) if out.shape == shape && !out.fixed => out.index_strides.clone(),
        (None, Some(out)) => {
            return Err(format!(
                "internal error: a JIT chunk of shape {shape:?} written into a region of {:?}",
                out.shape
            )
            .into())
        }
        (None, None) => c_strides(&shape),
        (Some(_), _) => {
            let keepdims: Vec<usize> = (0..ndim)
                .map(|axis| if reduced[axis] { 1 } else { shape[axis] })
                .collect();
            let strides = c_strides(&keepdims);
            (0..ndim)
                .map(|axis| if reduced[axis] { 0 } else { strides[axis] })
                .collect()
        }
    };
    let leaf_strides: Vec<Vec<usize>> = leaves
        .iter()
        .map(|leaf| broadcast_strides(leaf, &shape))
        .collect();
    let mut merged = Merged::default();
    for axis in 0..ndim {
        if shape[axis] == 1 {
            continue;
        }
        let strides: Vec<usize> = leaf_strides.iter().map(|s| s[axis]).collect();
        merged.push(shape[axis], reduced[axis], strides, out_strides[axis]);
    }
    // A row must read every leaf with stride 0 or 1; otherwise rows of one element.
    let inner_ok = merged
        .leaf_strides
        .last()
        .is_none_or(|last| last.iter().all(|&s| s <= 1))
        && merged.out_strides.last().is_none_or(|&s| s <= 1);
    if !inner_ok || merged.extents.is_empty() {
        // With no axis left every output position has one element: a whole run.
        let whole_run = merged.extents.is_empty() && reduce_axes.is_some();
        merged.extents.push(1);
        merged.reduced.push(whole_run);
        merged.leaf_strides.push(vec![0; leaves.len()]);
        merged.out_strides.push(0);
    }
    let inner = merged.extents.len() - 1;
    let broadcast = leaves
        .iter()
        .enumerate()
        .map(|(k, leaf)| leaf.fixed || merged.leaf_strides[inner][k] == 0)
        .collect();
    let mode = match reduce_axes {
        None => Mode::Store,
        Some(_) if merged.reduced[inner] => Mode::FoldRow,
        Some(_) => Mode::AccumulateRow,
    };
    let leaf_strides = (0..leaves.len())
        .map(|k| merged.leaf_strides.iter().map(|axis| axis[k]).collect())
        .collect();
    let reduced_outside_row = merged.reduced[..inner].iter().any(|&r| r);
    Ok(RowLayout {
        out_base: out.map_or(0, |out| out.base),
        reduced_outside_row,
        shape,
        extents: merged.extents,
        leaf_strides,
        out_strides: merged.out_strides,
        variant: Variant {
            broadcast,
            mode,
            rows: 1,
        },
    })
}

/// A leaf's strides over the output's axes (right-aligned; 0 where it is broadcast).
fn broadcast_strides(leaf: &LeafGeometry, shape: &[usize]) -> Vec<usize> {
    let missing = shape.len() - leaf.shape.len();
    (0..shape.len())
        .map(|axis| match axis.checked_sub(missing) {
            Some(own) if !leaf.fixed && leaf.shape[own] == shape[axis] && shape[axis] != 1 => {
                leaf.index_strides[own]
            }
            _ => 0,
        })
        .collect()
}

/// Axes being merged, outermost first; strides per axis.
#[derive(Default)]
struct Merged {
    extents: Vec<usize>,
    reduced: Vec<bool>,
    leaf_strides: Vec<Vec<usize>>,
    out_strides: Vec<usize>,
}

impl Merged {
    fn push(&mut self, extent: usize, reduced: bool, strides: Vec<usize>, out_stride: usize) {
        if let Some(last) = self.extents.len().checked_sub(1) {
            let contiguous = self.reduced[last] == reduced
                && self.out_strides[last] == out_stride * extent
                && self.leaf_strides[last]
                    .iter()
                    .zip(&strides)
                    .all(|(&outer, &inner)| outer == inner * extent);
            if contiguous {
                self.extents[last] *= extent;
                self.leaf_strides[last] = strides;
                self.out_strides[last] = out_stride;
                return;
            }
        }
        self.extents.push(extent);
        self.reduced.push(reduced);
        self.leaf_strides.push(strides);
        self.out_strides.push(out_stride);
    }
}
