//! The spill file format of a [`ReduceState`], so a plan's partial reductions can be
//! written to disk under a memory limit like its data chunks. It lives beside the
//! state because the state's parts are private to the reduction module.
//!
//! ```text
//! b"MTSTATE1"  op: u8 (index in ReduceOp::ALL)  input dtype: u8 (index in DType::ALL)
//! axes: u32 count, u64 each   keepdims shape: u32 count, u64 each   count: u64
//! partial kind: u8, then its arrays in the array spill format
//! ```

use super::{Partial, ReduceState};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::ops::ReduceOp;
use crate::spill_format::{invalid, read_array, read_bytes, read_u8, write_array};
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"MTSTATE1";

/// More axes than any real array; guards against reading a corrupt header.
const MAX_NDIM: u32 = 64;

/// Writes `state` in the state spill format.
pub fn write_state(state: &ReduceState, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&[code_of(ReduceOp::ALL, &state.op)?])?;
    out.write_all(&[code_of(&DType::ALL, &state.input_dtype)?])?;
    write_usizes(&state.axes, out)?;
    write_usizes(&state.keepdims_shape, out)?;
    out.write_all(&(state.count as u64).to_le_bytes())?;
    match &state.partial {
        Partial::Total(total) => tagged(out, 0, &[total]),
        Partial::Extreme(extreme) => tagged(out, 1, &[extreme]),
        Partial::Truth(truth) => tagged(out, 2, &[&ArrayData::Bool(truth.clone())]),
        Partial::Count(count) => tagged(out, 3, &[&ArrayData::Int64(count.clone())]),
        Partial::Arg { value, index } => tagged(out, 5, &[value, &ArrayData::Int64(index.clone())]),
    }
}

/// Reads a state written by [`write_state`]; a malformed file is an
/// `InvalidData` error, never a panic.
pub fn read_state(input: &mut dyn Read) -> io::Result<ReduceState> {
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic)?;
    if &magic != MAGIC {
        return Err(invalid("not a marsc reduction-state spill file"));
    }
    let op = from_code(ReduceOp::ALL, read_u8(input)?)?;
    let input_dtype = from_code(&DType::ALL, read_u8(input)?)?;
    let axes = read_usizes(input)?;
    let keepdims_shape = read_usizes(input)?;
    let count = to_usize(u64::from_le_bytes(read_bytes(input)?))?;
    let partial = match read_u8(input)? {
        0 => Partial::Total(read_array(input)?),
        1 => Partial::Extreme(read_array(input)?),
        2 => match read_array(input)? {
            ArrayData::Bool(truth) => Partial::Truth(truth),
            _ => return Err(invalid("a truth partial that is not boolean")),
        },
        3 => Partial::Count(read_int64(input)?),
        5 => Partial::Arg {
            value: read_array(input)?,
            index: read_int64(input)?,
        },
        _ => return Err(invalid("unknown partial kind")),
    };
    Ok(ReduceState {
        op,
        input_dtype,
        axes,
        keepdims_shape,
        count,
        partial,
    })
}

fn tagged(out: &mut dyn Write, tag: u8, arrays: &[&ArrayData]) -> io::Result<()> {
    out.write_all(&[tag])?;
    arrays.iter().try_for_each(|array| write_array(array, out))
}

fn read_int64(input: &mut dyn Read) -> io::Result<ndarray::ArrayD<i64>> {
    match read_array(input)? {
        ArrayData::Int64(values) => Ok(values),
        _ => Err(invalid("an index or count partial that is not int64")),
    }
}

fn code_of<T: PartialEq>(all: &[T], item: &T) -> io::Result<u8> {
    all.iter()
        .position(|candidate| candidate == item)
        .and_then(|index| u8::try_from(index).ok())
        .ok_or_else(|| invalid("a value missing from its own list"))
}

fn from_code<T: Copy>(all: &[T], code: u8) -> io::Result<T> {
    all.get(usize::from(code))
        .copied()
        .ok_or_else(|| invalid("unknown code in a reduction state"))
}

fn write_usizes(values: &[usize], out: &mut dyn Write) -> io::Result<()> {
    let len = u32::try_from(values.len()).map_err(|_| invalid("too many axes"))?;
    out.write_all(&len.to_le_bytes())?;
    values
        .iter()
        .try_for_each(|&value| out.write_all(&(value as u64).to_le_bytes()))
}

fn read_usizes(input: &mut dyn Read) -> io::Result<Vec<usize>> {
    let len = u32::from_le_bytes(read_bytes(input)?);
    if len > MAX_NDIM {
        return Err(invalid("too many axes"));
    }
    (0..len)
        .map(|_| to_usize(u64::from_le_bytes(read_bytes(input)?)))
        .collect()
}

fn to_usize(value: u64) -> io::Result<usize> {
    usize::try_from(value).map_err(|_| invalid("a size too large for this machine"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::reduce::{reduce_map, ReduceState};
    use crate::ops::Reduction;
    use ndarray::{ArrayD, IxDyn};

    fn round_trip(state: &ReduceState) -> ReduceState {
        let mut bytes = Vec::new();
        write_state(state, &mut bytes).unwrap();
        read_state(&mut bytes.as_slice()).unwrap()
    }

    #[test]
    fn every_partial_kind_survives_a_round_trip() {
        let data = ArrayData::Float64(
            ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![1.0, -2.0, 3.5, 0.0, 7.0, 2.0]).unwrap(),
        );
        // var and std have no partial of their own: they reduce as a mean, then a
        // sum of squared deviations (`tile_moments`).
        for &op in ReduceOp::ALL
            .iter()
            .filter(|op| !matches!(op, ReduceOp::Var | ReduceOp::Std))
        {
            let reduction = Reduction { op, ddof: 0.0 };
            let state = reduce_map(reduction, &data, &[1], &[2, 3], &[0, 0]).unwrap();
            assert_eq!(round_trip(&state), state, "{}", op.name());
        }
    }

    #[test]
    fn a_corrupt_file_is_an_error() {
        let mut bytes = b"MTSTATE1\xff".to_vec();
        assert!(read_state(&mut bytes.as_slice()).is_err());
        bytes = b"NOTSTATE".to_vec();
        assert!(read_state(&mut bytes.as_slice()).is_err());
    }
}
