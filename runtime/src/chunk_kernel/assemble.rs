//! Building one chunk out of regions of others (rechunking), and walking a region of
//! a C-order array as runs of consecutive elements (literal chunks).

use crate::array::{try_array_filled, ArrayData};
use crate::huge_alloc::ZeroIsValid;
use crate::kernels::KernelError;
use ndarray::{ArrayD, Slice};
use std::ops::Range;

/// One argument's contribution to an assembled chunk: `region` of the argument
/// (local to it) lands at `at` in the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssemblePiece {
    pub region: Vec<Range<usize>>,
    pub at: Vec<usize>,
}

/// The chunk of `shape` whose part `pieces[i]` comes from `inputs[i]`. The pieces
/// must tile the output exactly (the planner guarantees it; gaps would read as zero).
pub fn assemble(
    shape: &[usize],
    pieces: &[AssemblePiece],
    inputs: &[&ArrayData],
) -> Result<ArrayData, KernelError> {
    if pieces.len() != inputs.len() {
        return Err(KernelError(format!(
            "internal error: {} pieces for {} inputs",
            pieces.len(),
            inputs.len()
        )));
    }
    for (piece, input) in pieces.iter().zip(inputs) {
        check_piece(shape, piece, input.shape())?;
    }
    let Some(first) = inputs.first() else {
        return Err(KernelError("internal error: nothing to assemble".into()));
    };
    macro_rules! assemble_as {
        ($variant:ident) => {{
            let mut typed = Vec::with_capacity(inputs.len());
            for input in inputs {
                match input {
                    ArrayData::$variant(array) => typed.push(array),
                    other => {
                        return Err(KernelError(format!(
                            "internal error: cannot assemble {} with {}",
                            other.dtype(),
                            first.dtype()
                        )))
                    }
                }
            }
            ArrayData::$variant(assemble_typed(shape, pieces, &typed)?)
        }};
    }
    Ok(match first {
        ArrayData::Bool(_) => assemble_as!(Bool),
        ArrayData::Int8(_) => assemble_as!(Int8),
        ArrayData::Int16(_) => assemble_as!(Int16),
        ArrayData::Int32(_) => assemble_as!(Int32),
        ArrayData::Int64(_) => assemble_as!(Int64),
        ArrayData::UInt8(_) => assemble_as!(UInt8),
        ArrayData::UInt16(_) => assemble_as!(UInt16),
        ArrayData::UInt32(_) => assemble_as!(UInt32),
        ArrayData::UInt64(_) => assemble_as!(UInt64),
        ArrayData::Float16(_) => assemble_as!(Float16),
        ArrayData::Float32(_) => assemble_as!(Float32),
        ArrayData::Float64(_) => assemble_as!(Float64),
        ArrayData::Complex64(_) => assemble_as!(Complex64),
        ArrayData::Complex128(_) => assemble_as!(Complex128),
    })
}

/// Checks that a piece lies inside both its input and the output, since ndarray
/// panics on an out-of-bounds slice.
fn check_piece(shape: &[usize], piece: &AssemblePiece, input: &[usize]) -> Result<(), KernelError> {
    let fits = piece.region.len() == input.len()
        && piece.at.len() == shape.len()
        && input.len() == shape.len()
        && piece.region.iter().enumerate().all(|(axis, range)| {
            range.start <= range.end
                && range.end <= input[axis]
                && piece.at[axis] + range.len() <= shape[axis]
        });
    if fits {
        Ok(())
    } else {
        Err(KernelError(format!(
            "internal error: piece {:?} at {:?} of an input of shape {input:?} does not fit a chunk of shape {shape:?}",
            piece.region, piece.at
        )))
    }
}

fn assemble_typed<T: ZeroIsValid + Default>(
    shape: &[usize],
    pieces: &[AssemblePiece],
    inputs: &[&ArrayD<T>],
) -> Result<ArrayD<T>, KernelError> {
    if let ([piece], [input]) = (pieces, inputs) {
        if input.shape() == shape && piece.at.iter().all(|&a| a == 0) {
            return Ok((*input).clone());
        }
    }
    let mut out = try_array_filled(shape, T::default())?;
    for (piece, input) in pieces.iter().zip(inputs) {
        let part = input.slice_each_axis(|ax| Slice::from(piece.region[ax.axis.index()].clone()));
        out.slice_each_axis_mut(|ax| {
            let axis = ax.axis.index();
            let start = piece.at[axis];
            Slice::from(start..start + piece.region[axis].len())
        })
        .assign(&part);
    }
    Ok(out)
}

/// Calls `visit(start, len)` for each run of consecutive C-order flat positions of
/// the region `offset..offset + shape` of an array of `global_shape`, in order.
/// The region must lie inside the array.
pub fn for_each_run(
    global_shape: &[usize],
    offset: &[usize],
    shape: &[usize],
    mut visit: impl FnMut(usize, usize),
) {
    let ndim = global_shape.len();
    if shape.contains(&0) {
        return;
    }
    if ndim == 0 {
        visit(0, 1);
        return;
    }
    let mut strides = vec![1usize; ndim];
    for axis in (0..ndim - 1).rev() {
        strides[axis] = strides[axis + 1] * global_shape[axis + 1];
    }
    let run = shape[ndim - 1];
    let mut position = vec![0usize; ndim - 1];
    loop {
        let start: usize = (0..ndim)
            .map(|axis| {
                let local = if axis < ndim - 1 { position[axis] } else { 0 };
                (offset[axis] + local) * strides[axis]
            })
            .sum();
        visit(start, run);
        let mut axis = ndim - 1;
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            position[axis] += 1;
            if position[axis] < shape[axis] {
                break;
            }
            position[axis] = 0;
        }
    }
}
