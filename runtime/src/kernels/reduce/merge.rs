//! The inner stage of a reduction tree: merging partial states elementwise. States of
//! chunks with no elements along the reduced axes are identities and are skipped where
//! their arrays hold no meaningful values (extremes, arg-extremes).

use super::element::{Accumulator, Element};
use super::map::Direction;
use super::{Partial, ReduceState};
use crate::kernels::KernelError;
use crate::ops::ReduceOp;
use ndarray::{ArrayD, Zip};

/// Merges the partials of `parts` (already checked to agree on op, dtype, axes and
/// shape), whose input element type is `E`.
pub(super) fn merge_partials<E: Element>(parts: &[&ReduceState]) -> Result<Partial, KernelError> {
    let op = parts.first().map_or(ReduceOp::Sum, |part| part.op);
    Ok(match op {
        ReduceOp::Sum => Partial::Total(<E::SumAcc>::into_data(fold_totals::<E::SumAcc>(
            parts,
            Accumulator::add,
        )?)),
        ReduceOp::Prod => Partial::Total(<E::SumAcc>::into_data(fold_totals::<E::SumAcc>(
            parts,
            Accumulator::mul,
        )?)),
        ReduceOp::Mean => Partial::Total(<E::MeanAcc>::into_data(fold_totals::<E::MeanAcc>(
            parts,
            Accumulator::add,
        )?)),
        ReduceOp::All
        | ReduceOp::WeightsCheck
        | ReduceOp::ChoiceCheck
        | ReduceOp::FweightsIntegerCheck
        | ReduceOp::FweightsSignCheck
        | ReduceOp::AweightsSignCheck => Partial::Truth(fold(truths(parts)?, |a, b| a && b)?),
        ReduceOp::Any => Partial::Truth(fold(truths(parts)?, |a, b| a || b)?),
        ReduceOp::CountNonzero => {
            let counts = pick(parts, |partial| match partial {
                Partial::Count(count) => Some(count),
                _ => None,
            })?;
            Partial::Count(fold(counts, i64::wrapping_add)?)
        }
        ReduceOp::Max | ReduceOp::Min => merge_extremes::<E>(Direction::of(op), parts)?,
        ReduceOp::Var | ReduceOp::Std => return Err(super::two_pass_moments(op)),
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            let direction = Direction::of(op);
            merge_args::<E>(parts, |best, next| {
                if direction.beats_at(next, best) {
                    next
                } else {
                    best
                }
            })?
        }
        ReduceOp::NanMax | ReduceOp::NanMin => {
            let direction = Direction::of(op);
            merge_args::<E>(parts, |a, b| direction.merge_extremes_skipping_nan(a, b))?
        }
        ReduceOp::NanArgMax | ReduceOp::NanArgMin => {
            let direction = Direction::of(op);
            merge_args::<E>(parts, |a, b| direction.merge_skipping_nan(a, b))?
        }
    })
}

/// Collects one array from each part's partial, failing if a part holds another kind.
fn pick<'a, T>(
    parts: &[&'a ReduceState],
    field: impl Fn(&'a Partial) -> Option<T>,
) -> Result<Vec<T>, KernelError> {
    parts
        .iter()
        .map(|part| {
            field(&part.partial).ok_or_else(|| {
                KernelError(format!(
                    "internal error: {} state holds a partial of another kind or dtype",
                    part.op.name()
                ))
            })
        })
        .collect()
}

/// Folds same-shaped arrays elementwise, left to right.
fn fold<T: Copy>(
    arrays: Vec<&ArrayD<T>>,
    combine: impl Fn(T, T) -> T,
) -> Result<ArrayD<T>, KernelError> {
    let mut arrays = arrays.into_iter();
    let Some(first) = arrays.next() else {
        return Err(no_parts());
    };
    let mut result = first.clone();
    for array in arrays {
        result.zip_mut_with(array, |acc, &v| *acc = combine(*acc, v));
    }
    Ok(result)
}

fn no_parts() -> KernelError {
    KernelError("reduce_combine needs at least one part".into())
}

fn fold_totals<A: Accumulator>(
    parts: &[&ReduceState],
    combine: fn(A, A) -> A,
) -> Result<ArrayD<A>, KernelError> {
    let totals = pick(parts, |partial| match partial {
        Partial::Total(data) => A::from_data(data),
        _ => None,
    })?;
    fold(totals, combine)
}

fn truths<'a>(parts: &[&'a ReduceState]) -> Result<Vec<&'a ArrayD<bool>>, KernelError> {
    pick(parts, |partial| match partial {
        Partial::Truth(truth) => Some(truth),
        _ => None,
    })
}

/// The parts that have seen elements, or just the first part if none has (an empty
/// result whose count stays zero).
fn non_empty<'a>(parts: &[&'a ReduceState]) -> Vec<&'a ReduceState> {
    let seen: Vec<&ReduceState> = parts.iter().copied().filter(|p| p.count > 0).collect();
    if seen.is_empty() {
        parts.iter().copied().take(1).collect()
    } else {
        seen
    }
}

fn merge_extremes<E: Element>(
    direction: Direction,
    parts: &[&ReduceState],
) -> Result<Partial, KernelError> {
    let extremes = pick(&non_empty(parts), |partial| match partial {
        Partial::Extreme(data) => E::from_data(data),
        _ => None,
    })?;
    // Parts come in chunk order, so a later part's equal value (the other signed
    // zero) replaces an earlier one, as within a chunk.
    let merged = fold(
        extremes,
        |best, v| {
            if direction.replaces(v, best) {
                v
            } else {
                best
            }
        },
    )?;
    Ok(Partial::Extreme(E::into_data(merged)))
}

/// Merges (value, global index) states with `merge` (the winner of two): those of
/// `argmax`/`argmin` and of `nanmax`/`nanmin`/`nanargmax`/`nanargmin`.
fn merge_args<E: Element>(
    parts: &[&ReduceState],
    merge: impl Fn((E, i64), (E, i64)) -> (E, i64),
) -> Result<Partial, KernelError> {
    let args = pick(&non_empty(parts), |partial| match partial {
        Partial::Arg { value, index } => E::from_data(value).map(|value| (value, index)),
        _ => None,
    })?;
    let Some(((first_value, first_index), rest)) = args.split_first() else {
        return Err(no_parts());
    };
    let mut values = (*first_value).clone();
    let mut indices = (*first_index).clone();
    for (value, index) in rest {
        Zip::from(&mut values)
            .and(&mut indices)
            .and(*value)
            .and(*index)
            .for_each(|best, best_index, &v, &i| {
                (*best, *best_index) = merge((*best, *best_index), (v, i));
            });
    }
    Ok(Partial::Arg {
        value: E::into_data(values),
        index: indices,
    })
}
