//! Reductions of a C-contiguous chunk whose innermost (non-unit) axis is kept, in
//! NumPy's order: NumPy's iterator walks such a chunk row by row and combines each row
//! into the output (`out[j] = out[j] op x[i, j]`, rows ascending), so float sums are
//! sequential per output position rather than pairwise. This covers every reduction
//! over a leading block of axes (`axis=0` of 2-D, `axis=(0, 1)` of 3-D) and is also
//! NumPy's order for mixtures such as `axis=1` of 3-D. The JIT's `AccumulateRow` mode
//! walks the same rows in the same order, so both give the same bits.

use super::element::{Accumulator, Element};
use super::layout::GlobalIndexer;
use super::map::Direction;
use super::Partial;
use crate::kernels::KernelError;
use crate::ops::ReduceOp;
use ndarray::{ArrayD, IxDyn};

/// How a chunk splits into rows of its trailing kept axes, and where each row's
/// output starts.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RowWalk {
    /// Elements per row: the product of the trailing run of kept axes.
    row_len: usize,
    /// The axes outside the row, outermost first, after merging neighbours that are
    /// both reduced or both kept: (extent, output stride; 0 for reduced axes).
    outer: Vec<(usize, usize)>,
    /// Output positions (the product of the kept extents).
    outputs: usize,
    /// Input elements per output position.
    per_output: usize,
}

/// Whether reducing a chunk of `shape` over `axes` goes row by row (NumPy's order),
/// which is so when the last axis of extent other than 1 is kept. The JIT uses this to
/// decide which float sums it can compute in the interpreter's order.
pub fn reduces_by_rows(shape: &[usize], axes: &[usize]) -> bool {
    shape
        .iter()
        .enumerate()
        .rev()
        .find(|&(_, &extent)| extent != 1)
        .is_some_and(|(axis, _)| !axes.contains(&axis))
}

impl RowWalk {
    /// The walk for `shape` reduced over `axes`, when [`reduces_by_rows`] holds.
    pub fn new(shape: &[usize], axes: &[usize]) -> Option<RowWalk> {
        if !reduces_by_rows(shape, axes) {
            return None;
        }
        // Merged groups of non-unit axes, outermost first: (extent, reduced).
        let mut groups: Vec<(usize, bool)> = Vec::new();
        for (axis, &extent) in shape.iter().enumerate() {
            if extent == 1 {
                continue;
            }
            let reduced = axes.contains(&axis);
            match groups.last_mut() {
                Some((last, last_reduced)) if *last_reduced == reduced => *last *= extent,
                _ => groups.push((extent, reduced)),
            }
        }
        let (row_len, _) = groups.pop()?;
        let mut outer = Vec::with_capacity(groups.len());
        let mut kept_inside = row_len;
        for &(extent, reduced) in groups.iter().rev() {
            if reduced {
                outer.push((extent, 0));
            } else {
                outer.push((extent, kept_inside));
                kept_inside *= extent;
            }
        }
        outer.reverse();
        let per_output = groups
            .iter()
            .filter(|&&(_, reduced)| reduced)
            .map(|&(extent, _)| extent)
            .product();
        Some(RowWalk {
            row_len,
            outer,
            outputs: kept_inside,
            per_output,
        })
    }

    /// Calls `visit(offset, row, position)` for every row of `data` (the chunk in C
    /// order), in order: `offset` is where the row's outputs start, and `position` is
    /// the row's place in those outputs' runs (its reduced indices raveled in C
    /// order), so 0 for the first row reaching them.
    fn each_row<E>(&self, data: &[E], mut visit: impl FnMut(usize, &[E], usize)) {
        if self.row_len == 0 {
            return;
        }
        let mut index = vec![0usize; self.outer.len()];
        let mut offset = 0;
        for row in data.chunks_exact(self.row_len) {
            let position = index
                .iter()
                .zip(&self.outer)
                .filter(|&(_, &(_, stride))| stride == 0)
                .fold(0, |position, (&i, &(extent, _))| position * extent + i);
            visit(offset, row, position);
            for (axis, &(extent, stride)) in self.outer.iter().enumerate().rev() {
                index[axis] += 1;
                offset += stride;
                if index[axis] < extent {
                    break;
                }
                offset -= stride * extent;
                index[axis] = 0;
            }
        }
    }

    /// Folds every row into an output of `empty` values: the first row reaching an
    /// output sets it with `start`, later rows combine with `combine`.
    fn fold<E: Copy, A: Copy>(
        &self,
        data: &[E],
        empty: A,
        start: impl Fn(E) -> A,
        combine: impl Fn(A, E) -> A,
    ) -> Vec<A> {
        let mut out = vec![empty; self.outputs];
        self.each_row(data, |offset, row, position| {
            let out_row = &mut out[offset..offset + row.len()];
            if position == 0 {
                for (o, &v) in out_row.iter_mut().zip(row) {
                    *o = start(v);
                }
            } else {
                for (o, &v) in out_row.iter_mut().zip(row) {
                    *o = combine(*o, v);
                }
            }
        });
        out
    }
}

/// The partial state of `op` over the rows of `data`; `indexer` places the chunk for
/// argmax and argmin.
pub(super) fn map_rows<E: Element>(
    op: ReduceOp,
    data: &[E],
    walk: &RowWalk,
    keepdims_shape: &[usize],
    indexer: Option<&GlobalIndexer>,
) -> Result<Partial, KernelError> {
    Ok(match op {
        ReduceOp::Sum => Partial::Total(<E::SumAcc>::into_data(keepdims_array(
            keepdims_shape,
            sum_rows::<E, E::SumAcc>(walk, data),
        )?)),
        ReduceOp::Mean => Partial::Total(<E::MeanAcc>::into_data(keepdims_array(
            keepdims_shape,
            sum_rows::<E, E::MeanAcc>(walk, data),
        )?)),
        ReduceOp::Prod => {
            let one = <E::SumAcc>::ONE;
            let values = walk.fold(
                data,
                one,
                |v| one.mul(<E::SumAcc>::from_element(v)),
                |acc, v| acc.mul(<E::SumAcc>::from_element(v)),
            );
            Partial::Total(<E::SumAcc>::into_data(keepdims_array(
                keepdims_shape,
                values,
            )?))
        }
        ReduceOp::Max | ReduceOp::Min => {
            let direction = Direction::of(op);
            let values = walk.fold(
                data,
                E::default(),
                |v| v,
                |best, v| if direction.replaces(v, best) { v } else { best },
            );
            Partial::Extreme(E::into_data(keepdims_array(keepdims_shape, values)?))
        }
        ReduceOp::NanMax | ReduceOp::NanMin | ReduceOp::NanArgMax | ReduceOp::NanArgMin => {
            let Some(indexer) = indexer else {
                return Err(KernelError(format!(
                    "{} needs the chunk's offset",
                    op.name()
                )));
            };
            let direction = Direction::of(op);
            let extreme = matches!(op, ReduceOp::NanMax | ReduceOp::NanMin);
            let (value, index) = nan_arg_rows(walk, data, indexer, |a, b| {
                if extreme {
                    direction.merge_extremes_skipping_nan(a, b)
                } else {
                    direction.merge_skipping_nan(a, b)
                }
            });
            Partial::Arg {
                value: E::into_data(keepdims_array(keepdims_shape, value)?),
                index: keepdims_array(keepdims_shape, index)?,
            }
        }
        ReduceOp::All
        | ReduceOp::WeightsCheck
        | ReduceOp::ChoiceCheck
        | ReduceOp::FweightsIntegerCheck
        | ReduceOp::FweightsSignCheck
        | ReduceOp::AweightsSignCheck => Partial::Truth(keepdims_array(
            keepdims_shape,
            walk.fold(
                data,
                true,
                |v| v.is_nonzero(),
                |acc, v| acc && v.is_nonzero(),
            ),
        )?),
        ReduceOp::Any => Partial::Truth(keepdims_array(
            keepdims_shape,
            walk.fold(
                data,
                false,
                |v| v.is_nonzero(),
                |acc, v| acc || v.is_nonzero(),
            ),
        )?),
        ReduceOp::CountNonzero => Partial::Count(keepdims_array(
            keepdims_shape,
            walk.fold(
                data,
                0i64,
                |v| i64::from(v.is_nonzero()),
                |acc, v| acc.wrapping_add(i64::from(v.is_nonzero())),
            ),
        )?),
        ReduceOp::Var | ReduceOp::Std => return Err(super::two_pass_moments(op)),
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            let Some(indexer) = indexer else {
                return Err(KernelError("argmax/argmin need the chunk's offset".into()));
            };
            let (value, index) = arg_rows(Direction::of(op), walk, data, indexer);
            Partial::Arg {
                value: E::into_data(keepdims_array(keepdims_shape, value)?),
                index: keepdims_array(keepdims_shape, index)?,
            }
        }
    })
}

/// The winning value and global index per output: the first row sets them, a later
/// row replaces them only where its value beats them, so ties keep the first
/// occurrence as NumPy does.
fn arg_rows<E: Element>(
    direction: Direction,
    walk: &RowWalk,
    data: &[E],
    indexer: &GlobalIndexer,
) -> (Vec<E>, Vec<i64>) {
    let mut values = vec![E::default(); walk.outputs];
    let mut indices = vec![0i64; walk.outputs];
    walk.each_row(data, |offset, row, position| {
        let global = indexer.global_index(position);
        let span = offset..offset + row.len();
        if position == 0 {
            values[span.clone()].copy_from_slice(row);
            indices[span].fill(global);
            return;
        }
        let bests = values[span.clone()].iter_mut().zip(&mut indices[span]);
        for ((best, index), &v) in bests.zip(row) {
            if direction.beats(v, *best) {
                *best = v;
                *index = global;
            }
        }
    });
    (values, indices)
}

/// [`arg_rows`] for `nanmax`/`nanmin`/`nanargmax`/`nanargmin`: each later row
/// merges into the (value, global index) state with `merge`.
fn nan_arg_rows<E: Element>(
    walk: &RowWalk,
    data: &[E],
    indexer: &GlobalIndexer,
    merge: impl Fn((E, i64), (E, i64)) -> (E, i64),
) -> (Vec<E>, Vec<i64>) {
    let mut values = vec![E::default(); walk.outputs];
    let mut indices = vec![0i64; walk.outputs];
    walk.each_row(data, |offset, row, position| {
        let global = indexer.global_index(position);
        let span = offset..offset + row.len();
        if position == 0 {
            values[span.clone()].copy_from_slice(row);
            indices[span].fill(global);
            return;
        }
        let bests = values[span.clone()].iter_mut().zip(&mut indices[span]);
        for ((best, index), &v) in bests.zip(row) {
            (*best, *index) = merge((*best, *index), (v, global));
        }
    });
    (values, indices)
}

/// NumPy's sum over rows: the output starts at 0 (so `-0.0` sums to `0.0`, as NumPy
/// gives) and each row is added in turn.
fn sum_rows<E: Element, A: Accumulator>(walk: &RowWalk, data: &[E]) -> Vec<A> {
    walk.fold(
        data,
        A::ZERO,
        |v| A::ZERO.add(A::from_element(v)),
        |acc, v| acc.add(A::from_element(v)),
    )
}

fn keepdims_array<T>(keepdims_shape: &[usize], values: Vec<T>) -> Result<ArrayD<T>, KernelError> {
    ArrayD::from_shape_vec(IxDyn(keepdims_shape), values)
        .map_err(|err| KernelError(format!("internal error: reduction output shape: {err}")))
}
