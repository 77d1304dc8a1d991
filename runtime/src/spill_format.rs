//! The spill file format of an [`ArrayData`] chunk, so that a kernel whose values
//! are arrays implements [`ChunkKernel::spill`](super::ChunkKernel::spill) and
//! [`ChunkKernel::unspill`](super::ChunkKernel::unspill) in one line each.
//!
//! ```text
//! b"MTSPILL1"  dtype: u8 (0 bool, 1 int32, 2 int64, 3 float32, 4 float64)
//! ndim: u32    shape: ndim × u64    elements: C order, little-endian (bool: 0 or 1)
//! ```
//! All integers are little-endian. A spill file lives only as long as one run, so
//! the format has no versioning beyond the magic.

use crate::array::ArrayData;
use crate::dtype::DType;
use ndarray::{ArrayD, IxDyn};
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"MTSPILL1";

/// Dimensions beyond any real array; guards against reading a corrupt header.
const MAX_NDIM: u32 = 64;

/// Bytes collected before each write, so `out` sees few large writes.
const WRITE_BUFFER: usize = 64 * 1024;

/// Bytes read at a time when reading elements back.
const READ_BUFFER: usize = 64 * 1024;

/// The most element storage reserved up front, whatever a header claims.
const MAX_RESERVED_BYTES: usize = 1 << 30;

/// Writes `array` in the spill format.
pub fn write_array(array: &ArrayData, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&[dtype_code(array.dtype())])?;
    let shape = array.shape();
    let ndim = u32::try_from(shape.len()).map_err(|_| invalid("too many dimensions"))?;
    out.write_all(&ndim.to_le_bytes())?;
    for &extent in shape {
        out.write_all(&(extent as u64).to_le_bytes())?;
    }
    match array {
        ArrayData::Bool(a) => write_elements(a, out, |v| [u8::from(v)]),
        ArrayData::Int8(a) => write_elements(a, out, i8::to_le_bytes),
        ArrayData::Int16(a) => write_elements(a, out, i16::to_le_bytes),
        ArrayData::Int32(a) => write_elements(a, out, i32::to_le_bytes),
        ArrayData::Int64(a) => write_elements(a, out, i64::to_le_bytes),
        ArrayData::UInt8(a) => write_elements(a, out, u8::to_le_bytes),
        ArrayData::UInt16(a) => write_elements(a, out, u16::to_le_bytes),
        ArrayData::UInt32(a) => write_elements(a, out, u32::to_le_bytes),
        ArrayData::UInt64(a) => write_elements(a, out, u64::to_le_bytes),
        ArrayData::Float16(a) => write_elements(a, out, half::f16::to_le_bytes),
        ArrayData::Float32(a) => write_elements(a, out, f32::to_le_bytes),
        ArrayData::Float64(a) => write_elements(a, out, f64::to_le_bytes),
        ArrayData::Complex64(a) => write_elements(a, out, crate::C64::to_le_bytes),
        ArrayData::Complex128(a) => write_elements(a, out, crate::C128::to_le_bytes),
    }
}

/// Reads an array written by [`write_array`]; a malformed file is an
/// `InvalidData` error, never a panic.
pub fn read_array(input: &mut dyn Read) -> io::Result<ArrayData> {
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic)?;
    if &magic != MAGIC {
        return Err(invalid("not a marsc spill file"));
    }
    let dtype = dtype_from_code(read_u8(input)?)?;
    let ndim = u32::from_le_bytes(read_bytes(input)?);
    if ndim > MAX_NDIM {
        return Err(invalid("too many dimensions"));
    }
    let mut shape = Vec::with_capacity(ndim as usize);
    for _ in 0..ndim {
        let extent = u64::from_le_bytes(read_bytes(input)?);
        shape.push(usize::try_from(extent).map_err(|_| invalid("dimension too large"))?);
    }
    let len = shape
        .iter()
        .try_fold(1usize, |len, &extent| len.checked_mul(extent))
        .ok_or_else(|| invalid("array too large"))?;
    len.checked_mul(dtype.itemsize())
        .ok_or_else(|| invalid("array too large"))?;
    let shape = IxDyn(&shape);
    Ok(match dtype {
        DType::Bool => ArrayData::Bool(read_elements(input, shape, len, |[b]: [u8; 1]| match b {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(invalid("a bool element is neither 0 nor 1")),
        })?),
        DType::Int8 => ArrayData::Int8(read_elements(input, shape, len, |b| {
            Ok(i8::from_le_bytes(b))
        })?),
        DType::Int16 => ArrayData::Int16(read_elements(input, shape, len, |b| {
            Ok(i16::from_le_bytes(b))
        })?),
        DType::Int32 => ArrayData::Int32(read_elements(input, shape, len, |b| {
            Ok(i32::from_le_bytes(b))
        })?),
        DType::Int64 => ArrayData::Int64(read_elements(input, shape, len, |b| {
            Ok(i64::from_le_bytes(b))
        })?),
        DType::UInt8 => ArrayData::UInt8(read_elements(input, shape, len, |b| {
            Ok(u8::from_le_bytes(b))
        })?),
        DType::UInt16 => ArrayData::UInt16(read_elements(input, shape, len, |b| {
            Ok(u16::from_le_bytes(b))
        })?),
        DType::UInt32 => ArrayData::UInt32(read_elements(input, shape, len, |b| {
            Ok(u32::from_le_bytes(b))
        })?),
        DType::UInt64 => ArrayData::UInt64(read_elements(input, shape, len, |b| {
            Ok(u64::from_le_bytes(b))
        })?),
        DType::Float16 => ArrayData::Float16(read_elements(input, shape, len, |b| {
            Ok(half::f16::from_le_bytes(b))
        })?),
        DType::Float32 => ArrayData::Float32(read_elements(input, shape, len, |b| {
            Ok(f32::from_le_bytes(b))
        })?),
        DType::Float64 => ArrayData::Float64(read_elements(input, shape, len, |b| {
            Ok(f64::from_le_bytes(b))
        })?),
        DType::Complex64 => ArrayData::Complex64(read_elements(input, shape, len, |b| {
            Ok(crate::C64::from_le_bytes(b))
        })?),
        DType::Complex128 => ArrayData::Complex128(read_elements(input, shape, len, |b| {
            Ok(crate::C128::from_le_bytes(b))
        })?),
    })
}

fn dtype_code(dtype: DType) -> u8 {
    dtype.code()
}

fn dtype_from_code(code: u8) -> io::Result<DType> {
    DType::ALL
        .into_iter()
        .find(|&dtype| dtype_code(dtype) == code)
        .ok_or_else(|| invalid("unknown dtype code"))
}

/// Writes the elements in logical C order, whatever the memory layout.
fn write_elements<T: Copy, const N: usize>(
    array: &ArrayD<T>,
    out: &mut dyn Write,
    to_le: impl Fn(T) -> [u8; N],
) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(WRITE_BUFFER.min(array.len() * N));
    for &value in array {
        buffer.extend_from_slice(&to_le(value));
        if buffer.len() + N > WRITE_BUFFER {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)
}

/// Reads `len` elements through a small buffer straight into the array's storage:
/// reading the chunk as bytes first would hold it twice (or more, as the byte
/// buffer grows), which a run under a memory limit cannot afford.
fn read_elements<T, const N: usize>(
    input: &mut dyn Read,
    shape: IxDyn,
    len: usize,
    from_le: impl Fn([u8; N]) -> io::Result<T>,
) -> io::Result<ArrayD<T>> {
    // A corrupt header must not make us reserve more than a plausible chunk; past
    // that, the vector grows only as elements actually arrive.
    let mut values = Vec::with_capacity(len.min(MAX_RESERVED_BYTES / N));
    let mut buffer = vec![0u8; (READ_BUFFER / N).clamp(1, len.max(1)) * N];
    let mut left = len;
    while left > 0 {
        let count = left.min(buffer.len() / N);
        let bytes = &mut buffer[..count * N];
        input
            .read_exact(bytes)
            .map_err(|error| match error.kind() {
                io::ErrorKind::UnexpectedEof => io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "spill file ends inside the elements",
                ),
                _ => error,
            })?;
        for element in bytes.chunks_exact(N) {
            let mut array = [0u8; N];
            array.copy_from_slice(element);
            values.push(from_le(array)?);
        }
        left -= count;
    }
    ArrayD::from_shape_vec(shape, values).map_err(|error| invalid(&error.to_string()))
}

pub(crate) fn read_u8(input: &mut dyn Read) -> io::Result<u8> {
    let [byte] = read_bytes::<1>(input)?;
    Ok(byte)
}

pub(crate) fn read_bytes<const N: usize>(input: &mut dyn Read) -> io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    input.read_exact(&mut bytes)?;
    Ok(bytes)
}

pub(crate) fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, ShapeBuilder};

    fn round_trip(array: &ArrayData) -> ArrayData {
        let mut bytes = Vec::new();
        write_array(array, &mut bytes).unwrap();
        read_array(&mut bytes.as_slice()).unwrap()
    }

    #[test]
    fn every_dtype_round_trips() {
        let shape = IxDyn(&[2, 3]);
        let arrays = [
            ArrayData::Bool(
                ArrayD::from_shape_vec(shape.clone(), vec![true, false, true, true, false, false])
                    .unwrap(),
            ),
            ArrayData::Int32(
                ArrayD::from_shape_vec(shape.clone(), vec![1, -2, 3, i32::MIN, i32::MAX, 0])
                    .unwrap(),
            ),
            ArrayData::Int64(
                ArrayD::from_shape_vec(shape.clone(), vec![1, -2, 3, i64::MIN, i64::MAX, 0])
                    .unwrap(),
            ),
            ArrayData::Float32(
                ArrayD::from_shape_vec(
                    shape.clone(),
                    vec![0.5, -0.0, f32::INFINITY, 1e-38, 3.0, 7.25],
                )
                .unwrap(),
            ),
            ArrayData::Float64(
                ArrayD::from_shape_vec(
                    shape,
                    vec![0.1, -0.0, f64::NEG_INFINITY, 5e-324, 2.0, 1e308],
                )
                .unwrap(),
            ),
        ];
        for array in &arrays {
            assert_eq!(&round_trip(array), array);
        }
    }

    #[test]
    fn nan_bits_and_odd_shapes_survive() {
        let nan = f64::from_bits(0x7ff8_0000_dead_beef);
        let array = ArrayData::Float64(ArrayD::from_elem(IxDyn(&[]), nan));
        let ArrayData::Float64(back) = round_trip(&array) else {
            panic!("dtype changed");
        };
        assert_eq!(back.first().map(|v| v.to_bits()), Some(nan.to_bits()));
        let empty = ArrayData::Int64(ArrayD::zeros(IxDyn(&[3, 0, 2])));
        assert_eq!(round_trip(&empty), empty);
    }

    #[test]
    fn fortran_layout_is_written_in_c_order() {
        let fortran =
            ArrayD::from_shape_vec(IxDyn(&[2, 3]).f(), vec![1i32, 4, 2, 5, 3, 6]).unwrap();
        let array = ArrayData::Int32(fortran);
        let mut bytes = Vec::new();
        write_array(&array, &mut bytes).unwrap();
        let elements: Vec<i32> = bytes[bytes.len() - 24..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(elements, [1, 2, 3, 4, 5, 6]);
        assert_eq!(round_trip(&array), array);
    }

    #[test]
    fn corrupt_files_are_errors() {
        let array = ArrayData::Bool(ArrayD::from_elem(IxDyn(&[4]), true));
        let mut bytes = Vec::new();
        write_array(&array, &mut bytes).unwrap();
        let truncated = &bytes[..bytes.len() - 1];
        assert!(read_array(&mut &truncated[..]).is_err());
        let mut bad_bool = bytes.clone();
        *bad_bool.last_mut().unwrap() = 2;
        assert!(read_array(&mut bad_bool.as_slice()).is_err());
        let mut bad_magic = bytes.clone();
        bad_magic[0] = b'X';
        assert!(read_array(&mut bad_magic.as_slice()).is_err());
        let mut huge = bytes[..9].to_vec();
        huge.extend_from_slice(&2u32.to_le_bytes());
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(read_array(&mut huge.as_slice()).is_err());
        assert!(read_array(&mut &b""[..]).is_err());
    }
}
