//! Inclusive scans (`cumsum`, `cumprod`) of a tensor split into chunks along the scan
//! axis, in three pieces a tiler can schedule with O(k) work per chunk and no chunk
//! waiting for its neighbour's full output:
//! - [`scan_total`]: each chunk's total along the axis (in parallel);
//! - [`scan_carry`]: the running total before each chunk, from the previous carry and
//!   the previous chunk's total (a cheap chain over keepdims-sized arrays);
//! - [`scan_chunk`]: each chunk's scan, seeded with its carry (in parallel).
//!
//! Everything is computed in the scan's result dtype (int64 for bool and ints, the
//! float dtype otherwise); integers wrap as NumPy's do.

use crate::array::ArrayData;
use crate::kernels::reduce::{with_element_type, Accumulator, Element};
use crate::kernels::KernelError;
use crate::ops::ScanOp;
use ndarray::{ArrayD, Axis};

/// The inclusive scan of `x` along `axis`, continuing from `carry` (the running total
/// of everything before this chunk along the axis, in the result dtype and in `x`'s
/// shape with `axis` of length 1); `None` for the first chunk.
pub fn scan_chunk(
    op: ScanOp,
    x: &ArrayData,
    axis: usize,
    carry: Option<&ArrayData>,
) -> Result<ArrayData, KernelError> {
    check_axis(x, axis)?;
    with_element_type!(x.dtype(), E => scan_typed::<E>(op, typed::<E>(x)?, axis, carry))
}

fn scan_typed<E: Element>(
    op: ScanOp,
    input: &ArrayD<E>,
    axis: usize,
    carry: Option<&ArrayData>,
) -> Result<ArrayData, KernelError> {
    let carry = carry
        .map(|c| keepdims_operand::<E::ScanAcc>(c, input.shape(), axis))
        .transpose()?;
    let seeds: Option<Vec<E::ScanAcc>> =
        carry.map(|c| c.index_axis(Axis(axis), 0).iter().copied().collect());
    let mut output: ArrayD<E::ScanAcc> =
        input.as_standard_layout().mapv(<E::ScanAcc>::from_element);
    for (lane_index, mut lane) in output.lanes_mut(Axis(axis)).into_iter().enumerate() {
        // Seeding the running value with the carry (rather than adding the carry to a
        // local scan afterwards) keeps floats as close as possible to NumPy's
        // element-after-element cumsum.
        let mut running = seeds.as_ref().map(|seeds| seeds[lane_index]);
        for value in lane.iter_mut() {
            let next = match running {
                Some(before) => combine(op, before, *value),
                None => *value,
            };
            *value = next;
            running = Some(next);
        }
    }
    Ok(<E::ScanAcc>::into_data(output))
}

/// The total of `x` along `axis` (keepdims shape, result dtype): what the next chunk's
/// carry grows by. An empty chunk's total is the identity (0 or 1).
pub fn scan_total(op: ScanOp, x: &ArrayData, axis: usize) -> Result<ArrayData, KernelError> {
    check_axis(x, axis)?;
    with_element_type!(x.dtype(), E => Ok(total_typed::<E>(op, typed::<E>(x)?, axis)))
}

fn total_typed<E: Element>(op: ScanOp, input: &ArrayD<E>, axis: usize) -> ArrayData {
    let identity = match op {
        ScanOp::CumSum => <E::ScanAcc>::ZERO,
        ScanOp::CumProd => <E::ScanAcc>::ONE,
    };
    // Folded in the same order as `scan_chunk`, so a chunk's total is exactly the last
    // element of its own scan.
    let totals = input.map_axis(Axis(axis), |lane| {
        let mut values = lane.iter().map(|&v| <E::ScanAcc>::from_element(v));
        match values.next() {
            Some(first) => values.fold(first, |acc, v| combine(op, acc, v)),
            None => identity,
        }
    });
    <E::ScanAcc>::into_data(totals.insert_axis(Axis(axis)))
}

/// The carry for the chunk after the one whose carry was `prev_carry` (`None` for the
/// first chunk) and whose total was `prev_total`.
pub fn scan_carry(
    op: ScanOp,
    prev_carry: Option<&ArrayData>,
    prev_total: &ArrayData,
) -> Result<ArrayData, KernelError> {
    let Some(prev_carry) = prev_carry else {
        return Ok(prev_total.clone());
    };
    match (prev_carry, prev_total) {
        (ArrayData::Int64(carry), ArrayData::Int64(total)) if carry.shape() == total.shape() => {
            Ok(ArrayData::Int64(carry_step(op, carry, total)))
        }
        (ArrayData::UInt64(carry), ArrayData::UInt64(total)) if carry.shape() == total.shape() => {
            Ok(ArrayData::UInt64(carry_step(op, carry, total)))
        }
        (ArrayData::Float16(carry), ArrayData::Float16(total))
            if carry.shape() == total.shape() =>
        {
            Ok(ArrayData::Float16(carry_step(op, carry, total)))
        }
        (ArrayData::Float32(carry), ArrayData::Float32(total))
            if carry.shape() == total.shape() =>
        {
            Ok(ArrayData::Float32(carry_step(op, carry, total)))
        }
        (ArrayData::Float64(carry), ArrayData::Float64(total))
            if carry.shape() == total.shape() =>
        {
            Ok(ArrayData::Float64(carry_step(op, carry, total)))
        }
        (ArrayData::Complex64(carry), ArrayData::Complex64(total))
            if carry.shape() == total.shape() =>
        {
            Ok(ArrayData::Complex64(carry_step(op, carry, total)))
        }
        (ArrayData::Complex128(carry), ArrayData::Complex128(total))
            if carry.shape() == total.shape() =>
        {
            Ok(ArrayData::Complex128(carry_step(op, carry, total)))
        }
        _ => Err(KernelError(format!(
            "scan carry of {} {:?} does not match chunk total of {} {:?}",
            prev_carry.dtype(),
            prev_carry.shape(),
            prev_total.dtype(),
            prev_total.shape()
        ))),
    }
}

fn carry_step<A: Accumulator>(op: ScanOp, carry: &ArrayD<A>, total: &ArrayD<A>) -> ArrayD<A> {
    let mut next = carry.as_standard_layout().into_owned();
    next.zip_mut_with(total, |c, &t| *c = combine(op, *c, t));
    next
}

fn combine<A: Accumulator>(op: ScanOp, before: A, value: A) -> A {
    match op {
        ScanOp::CumSum => before.add(value),
        ScanOp::CumProd => before.mul(value),
    }
}

fn check_axis(x: &ArrayData, axis: usize) -> Result<(), KernelError> {
    if axis < x.ndim() {
        Ok(())
    } else {
        Err(KernelError(format!(
            "axis {axis} is out of bounds for array of dimension {}",
            x.ndim()
        )))
    }
}

fn typed<E: Element>(x: &ArrayData) -> Result<&ArrayD<E>, KernelError> {
    E::from_data(x).ok_or_else(|| {
        KernelError(format!(
            "internal error: expected {} data, got {}",
            E::DTYPE,
            x.dtype()
        ))
    })
}

/// Checks that a carry has the result dtype and `shape` with `axis` of length 1.
fn keepdims_operand<'a, A: Element>(
    carry: &'a ArrayData,
    shape: &[usize],
    axis: usize,
) -> Result<&'a ArrayD<A>, KernelError> {
    let mut expected = shape.to_vec();
    expected[axis] = 1;
    if carry.dtype() != A::DTYPE || carry.shape() != expected.as_slice() {
        return Err(KernelError(format!(
            "scan carry of {} {:?} does not fit a chunk of shape {shape:?} scanned along \
             axis {axis} into {}",
            carry.dtype(),
            carry.shape(),
            A::DTYPE
        )));
    }
    typed::<A>(carry)
}

#[cfg(test)]
mod tests;
