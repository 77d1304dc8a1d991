//! The leaf stage of a reduction tree: one chunk's partial result, computed row by row
//! over the runs that [`ReduceLayout::rows`] lays out (one contiguous run of input
//! elements per output position).

use super::element::{Accumulator, Element};
use super::layout::{GlobalIndexer, ReduceLayout};
use super::Partial;
use crate::kernels::KernelError;
use crate::ops::ReduceOp;
use ndarray::{ArrayD, IxDyn};

/// Which way an extreme or arg-extreme looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Direction {
    Largest,
    Smallest,
}

impl Direction {
    pub fn of(op: ReduceOp) -> Direction {
        match op {
            ReduceOp::Min | ReduceOp::ArgMin | ReduceOp::NanMin | ReduceOp::NanArgMin => {
                Direction::Smallest
            }
            _ => Direction::Largest,
        }
    }

    /// Whether `candidate` beats `current`, NumPy style: a NaN beats every number and
    /// nothing beats a NaN, so the first NaN seen is kept.
    pub fn beats<E: Element>(self, candidate: E, current: E) -> bool {
        if current.is_nan() {
            return false;
        }
        candidate.is_nan()
            || match self {
                Direction::Largest => candidate > current,
                Direction::Smallest => candidate < current,
            }
    }

    /// Whether `candidate`, met after `current`, replaces it in a `max`/`min` fold, as
    /// in NumPy's `maximum`/`minimum` loops (`acc = (acc > v || isnan(acc)) ? acc : v`):
    /// a NaN stays, a NaN replaces a number, and so does an equal value, so of `0.0`
    /// and `-0.0` the later one is kept (`np.max([0.0, -0.0])` is `-0.0`).
    pub fn replaces<E: Element>(self, candidate: E, current: E) -> bool {
        let keeps = current.is_nan()
            || match self {
                Direction::Largest => current > candidate,
                Direction::Smallest => current < candidate,
            };
        !keeps
    }

    /// Whether `candidate`, met after `current`, replaces it in a `nanmax`/`nanmin`
    /// fold, as in NumPy's `fmax`/`fmin` loops (`acc = (acc >= v || isnan(v)) ? acc :
    /// v`): a NaN never replaces, a number replaces a NaN, and of equal values the
    /// first stays (`np.nanmax([0.0, -0.0])` is `0.0`). An all-NaN run stays NaN.
    pub fn replaces_skipping_nan<E: Element>(self, candidate: E, current: E) -> bool {
        if candidate.is_nan() {
            return false;
        }
        current.is_nan()
            || match self {
                Direction::Largest => candidate > current,
                Direction::Smallest => candidate < current,
            }
    }

    /// Merges two `nanmax`/`nanmin` states (value, global index): the value
    /// [`Direction::replaces_skipping_nan`] prefers, and of equal values (`0.0` and
    /// `-0.0`, or NaNs) the one at the smaller index, the first in C order as NumPy's
    /// `fmax.reduce` keeps it, whatever the chunking.
    pub fn merge_extremes_skipping_nan<E: Element>(self, a: (E, i64), b: (E, i64)) -> (E, i64) {
        if self.replaces_skipping_nan(b.0, a.0) {
            return b;
        }
        if self.replaces_skipping_nan(a.0, b.0) || a.1 <= b.1 {
            a
        } else {
            b
        }
    }

    /// Merges two `nanargmax`/`nanargmin` states (value, index) as NumPy's
    /// `nanargmax` ranks elements: a NaN counts as the worst value (`-inf` for max,
    /// `inf` for min), the better value wins, equal values go to the smaller index.
    /// The merged value is NaN only when both are (every element seen was NaN),
    /// otherwise a number ranking as the winner does (a NaN winner ties with the
    /// other's infinity, which is kept), so the all-NaN test at the root is exact
    /// whatever the order and grouping of merges.
    pub fn merge_skipping_nan<E: Element>(self, a: (E, i64), b: (E, i64)) -> (E, i64) {
        let worst = match self {
            Direction::Largest => f64::NEG_INFINITY,
            Direction::Smallest => f64::INFINITY,
        };
        let rank = |v: E| if v.is_nan() { worst } else { v.to_f64() };
        let (ra, rb) = (rank(a.0), rank(b.0));
        let b_better = match self {
            Direction::Largest => rb > ra,
            Direction::Smallest => rb < ra,
        };
        let (winner, loser) = if b_better || (rb == ra && b.1 < a.1) {
            (b, a)
        } else {
            (a, b)
        };
        if winner.0.is_nan() {
            (loser.0, winner.1)
        } else {
            winner
        }
    }

    /// Whether (`candidate`, `candidate_index`) beats (`current`, `current_index`) for
    /// argmax/argmin: the better value wins, and among equal values (or NaNs) the
    /// smaller index, which makes the winner independent of the order of comparison.
    pub fn beats_at<E: Element>(
        self,
        (candidate, candidate_index): (E, i64),
        (current, current_index): (E, i64),
    ) -> bool {
        if self.beats(candidate, current) {
            return true;
        }
        let tied = if current.is_nan() {
            candidate.is_nan()
        } else {
            !self.beats(current, candidate)
        };
        tied && candidate_index < current_index
    }
}

pub(super) fn map_partial<E: Element>(
    op: ReduceOp,
    array: &ArrayD<E>,
    layout: &ReduceLayout,
    indexer: Option<&GlobalIndexer>,
) -> Result<Partial, KernelError> {
    let rows = layout.rows(array);
    Ok(match op {
        ReduceOp::Sum => Partial::Total(<E::SumAcc>::into_data(per_row(layout, &rows, E::sum)?)),
        ReduceOp::Prod => Partial::Total(<E::SumAcc>::into_data(per_row(
            layout,
            &rows,
            product::<E>,
        )?)),
        ReduceOp::Mean => Partial::Total(<E::MeanAcc>::into_data(per_row(
            layout,
            &rows,
            E::mean_sum,
        )?)),
        ReduceOp::Max | ReduceOp::Min => {
            let direction = Direction::of(op);
            Partial::Extreme(E::into_data(per_row(layout, &rows, |row| {
                extreme(direction, row)
            })?))
        }
        ReduceOp::NanMax | ReduceOp::NanMin => {
            let Some(indexer) = indexer else {
                return Err(KernelError("nanmax/nanmin need the chunk's offset".into()));
            };
            let direction = Direction::of(op);
            let winners = per_row(layout, &rows, |row| {
                fold_at(row, |a, b| direction.merge_extremes_skipping_nan(a, b))
            })?;
            Partial::Arg {
                value: E::into_data(winners.mapv(|(value, _)| value)),
                index: winners.mapv(|(_, local)| indexer.global_index(local as usize)),
            }
        }
        ReduceOp::NanArgMax | ReduceOp::NanArgMin => {
            let Some(indexer) = indexer else {
                return Err(KernelError(
                    "nanargmax/nanargmin need the chunk's offset".into(),
                ));
            };
            let direction = Direction::of(op);
            let winners = per_row(layout, &rows, |row| arg_skipping_nan(direction, row))?;
            Partial::Arg {
                value: E::into_data(winners.mapv(|(value, _)| value)),
                index: winners.mapv(|(_, local)| indexer.global_index(local as usize)),
            }
        }
        ReduceOp::All
        | ReduceOp::WeightsCheck
        | ReduceOp::ChoiceCheck
        | ReduceOp::FweightsIntegerCheck
        | ReduceOp::FweightsSignCheck
        | ReduceOp::AweightsSignCheck => Partial::Truth(per_row(layout, &rows, |row| {
            row.iter().all(|v| v.is_nonzero())
        })?),
        ReduceOp::Any => Partial::Truth(per_row(layout, &rows, |row| {
            row.iter().any(|v| v.is_nonzero())
        })?),
        ReduceOp::CountNonzero => Partial::Count(per_row(layout, &rows, |row| {
            row.iter().filter(|v| v.is_nonzero()).count() as i64
        })?),
        ReduceOp::Var | ReduceOp::Std => return Err(super::two_pass_moments(op)),
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            let Some(indexer) = indexer else {
                return Err(KernelError("argmax/argmin need the chunk's offset".into()));
            };
            let direction = Direction::of(op);
            let winners = per_row(layout, &rows, |row| arg_extreme(direction, row))?;
            Partial::Arg {
                value: E::into_data(winners.mapv(|(value, _)| value)),
                index: winners.mapv(|(_, local)| indexer.global_index(local)),
            }
        }
    })
}

/// Applies `f` to each output's run and arranges the results in the keepdims shape.
fn per_row<E, R>(
    layout: &ReduceLayout,
    rows: &[E],
    f: impl Fn(&[E]) -> R,
) -> Result<ArrayD<R>, KernelError> {
    let values: Vec<R> = layout.each_row(rows).map(f).collect();
    ArrayD::from_shape_vec(IxDyn(&layout.keepdims_shape), values)
        .map_err(|err| KernelError(format!("internal error: reduction output shape: {err}")))
}

fn product<E: Element>(row: &[E]) -> E::SumAcc {
    row.iter().fold(<E::SumAcc>::ONE, |acc, &v| {
        acc.mul(<E::SumAcc>::from_element(v))
    })
}

/// The extreme of a run (the first NaN if there is one; of equal values, the last);
/// the default for an empty run, which the state's zero count marks as meaningless.
fn extreme<E: Element>(direction: Direction, row: &[E]) -> E {
    let Some((&first, rest)) = row.split_first() else {
        return E::default();
    };
    rest.iter().fold(
        first,
        |best, &v| {
            if direction.replaces(v, best) {
                v
            } else {
                best
            }
        },
    )
}

/// A run folded by `merge` over (value, position in the run) states; the default
/// for an empty run, which the state's zero count marks as meaningless.
fn fold_at<E: Element>(row: &[E], merge: impl Fn((E, i64), (E, i64)) -> (E, i64)) -> (E, i64) {
    let Some((&first, rest)) = row.split_first() else {
        return (E::default(), 0);
    };
    rest.iter()
        .enumerate()
        .fold((first, 0), |best, (position, &v)| {
            merge(best, (v, position as i64 + 1))
        })
}

/// The `nanargmax`/`nanargmin` state of a run: see [`Direction::merge_skipping_nan`].
fn arg_skipping_nan<E: Element>(direction: Direction, row: &[E]) -> (E, i64) {
    fold_at(row, |a, b| direction.merge_skipping_nan(a, b))
}

/// The extreme of a run and its position in the run: the first occurrence, or the
/// first NaN.
fn arg_extreme<E: Element>(direction: Direction, row: &[E]) -> (E, usize) {
    let mut best = (E::default(), 0);
    for (position, &v) in row.iter().enumerate() {
        if position == 0 || direction.beats(v, best.0) {
            best = (v, position);
        }
    }
    best
}
