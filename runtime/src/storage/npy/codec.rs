//! Reading and writing the element data of `.npy` files, whole or one region at a time.
//!
//! Chunks of one array read and write their own hyper-rectangle of a shared file with
//! positioned I/O (`read_exact_at`/`write_all_at`), one call per contiguous run of
//! elements, so workers never share a file cursor. `write_array` goes through a
//! temporary file and a rename so a failure never leaves a truncated file behind.

use super::header::{encode_header, read_header, NpyError, NpyHeader};
use super::writable::{Reserved, WritableNpy};
use crate::array::ArrayData;
use crate::dtype::DType;
use ndarray::{ArrayD, IxDyn};
use std::fs::{OpenOptions, Permissions};
use std::io::{BufWriter, Write};
use std::os::unix::fs::{FileExt, PermissionsExt};
use std::path::Path;

/// Reads the hyper-rectangle starting at `offset` with extent `shape` of the array the
/// file's `header` describes (C or Fortran order). The result is in C order.
pub fn read_region(
    path: &Path,
    header: &NpyHeader,
    offset: &[usize],
    shape: &[usize],
) -> Result<ArrayData, NpyError> {
    let file = std::fs::File::open(path).map_err(|e| io_error("open", path, e))?;
    read_region_of(&file, path, header, offset, shape)
}

/// [`read_region`] from `file`, already open (`path` only names it in errors): a
/// load opens its file once per run, so a save that replaces the path meanwhile
/// does not change what the load reads.
pub fn read_region_of(
    file: &std::fs::File,
    path: &Path,
    header: &NpyHeader,
    offset: &[usize],
    shape: &[usize],
) -> Result<ArrayData, NpyError> {
    check_region(path, &header.shape, header.dtype, offset, shape)?;
    let (file_shape, file_offset, file_extent) = in_file_order(header, offset, shape);
    let runs = RegionRuns::new(&file_shape, &file_offset, &file_extent);
    let reader = RegionReader {
        file,
        path,
        data_offset: header.data_offset,
        runs: &runs,
        shape: &file_extent,
    };
    decode_region(&reader, header)
}

/// Where a region's elements come from: the file itself, or a copy of its bytes in
/// memory (a mapping).
trait RegionSource {
    /// The region in file order, decoding little-endian elements with `from_le`.
    fn decode<T: Copy + Default, const N: usize>(
        &self,
        from_le: impl Fn([u8; N]) -> T,
    ) -> Result<ArrayD<T>, NpyError>;
}

/// The region of `source` as C-order data of the header's dtype.
fn decode_region(source: &impl RegionSource, header: &NpyHeader) -> Result<ArrayData, NpyError> {
    let data = match header.dtype {
        DType::Bool => ArrayData::Bool(source.decode(|[b]: [u8; 1]| b != 0)?),
        DType::Int8 => ArrayData::Int8(source.decode(i8::from_le_bytes)?),
        DType::Int16 => ArrayData::Int16(source.decode(i16::from_le_bytes)?),
        DType::Int32 => ArrayData::Int32(source.decode(i32::from_le_bytes)?),
        DType::Int64 => ArrayData::Int64(source.decode(i64::from_le_bytes)?),
        DType::UInt8 => ArrayData::UInt8(source.decode(u8::from_le_bytes)?),
        DType::UInt16 => ArrayData::UInt16(source.decode(u16::from_le_bytes)?),
        DType::UInt32 => ArrayData::UInt32(source.decode(u32::from_le_bytes)?),
        DType::UInt64 => ArrayData::UInt64(source.decode(u64::from_le_bytes)?),
        DType::Float16 => ArrayData::Float16(source.decode(half::f16::from_le_bytes)?),
        DType::Float32 => ArrayData::Float32(source.decode(f32::from_le_bytes)?),
        DType::Float64 => ArrayData::Float64(source.decode(f64::from_le_bytes)?),
        DType::Complex64 => ArrayData::Complex64(source.decode(crate::C64::from_le_bytes)?),
        DType::Complex128 => ArrayData::Complex128(source.decode(crate::C128::from_le_bytes)?),
    };
    Ok(if header.fortran_order {
        reverse_axes(data)
    } else {
        data
    })
}

/// The region as a region of the C-order array the file stores: a Fortran-order file
/// is the C-order file of the transposed array. Returns (shape, offset, extent).
fn in_file_order(
    header: &NpyHeader,
    offset: &[usize],
    shape: &[usize],
) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let reversed = |dims: &[usize]| dims.iter().rev().copied().collect::<Vec<_>>();
    if header.fortran_order {
        (reversed(&header.shape), reversed(offset), reversed(shape))
    } else {
        (header.shape.clone(), offset.to_vec(), shape.to_vec())
    }
}

/// Copies the region at `offset` of extent `shape` out of `data`, the element bytes
/// of the array `header` describes (a mapped file's); one copy per contiguous run.
/// The result is in C order.
pub fn copy_region(
    path: &Path,
    data: &[u8],
    header: &NpyHeader,
    offset: &[usize],
    shape: &[usize],
) -> Result<ArrayData, NpyError> {
    check_region(path, &header.shape, header.dtype, offset, shape)?;
    let (file_shape, file_offset, file_extent) = in_file_order(header, offset, shape);
    let runs = RegionRuns::new(&file_shape, &file_offset, &file_extent);
    let copier = RegionCopier {
        data,
        path,
        runs: &runs,
        shape: &file_extent,
    };
    decode_region(&copier, header)
}

/// Where a region's runs are copied from: element bytes in memory.
struct RegionCopier<'a> {
    data: &'a [u8],
    path: &'a Path,
    runs: &'a RegionRuns,
    /// The region's extent in file order.
    shape: &'a [usize],
}

impl RegionSource for RegionCopier<'_> {
    fn decode<T: Copy + Default, const N: usize>(
        &self,
        from_le: impl Fn([u8; N]) -> T,
    ) -> Result<ArrayD<T>, NpyError> {
        let count: usize = self.shape.iter().product();
        let mut values = Vec::with_capacity(count);
        self.runs.for_each(|file_element, _| {
            let bytes = file_element
                .checked_add(self.runs.run_len)
                .and_then(|end| self.data.get(file_element * N..end * N))
                .ok_or_else(|| truncated(self.path))?;
            values.extend(bytes.chunks_exact(N).map(|element| {
                let mut array = [0u8; N];
                array.copy_from_slice(element);
                from_le(array)
            }));
            Ok(())
        })?;
        ArrayD::from_shape_vec(IxDyn(self.shape), values)
            .map_err(|e| NpyError::Malformed(format!("'{}': {e}", self.path.display())))
    }
}

/// Reads a whole `.npy` file.
pub fn read_array(path: &Path) -> Result<ArrayData, NpyError> {
    let header = read_header(path).map_err(|e| name_file(path, e))?;
    let origin = vec![0; header.shape.len()];
    read_region(path, &header, &origin, &header.shape.clone())
}

/// Creates (or truncates) `path` as a C-order `.npy` file of this dtype and shape with
/// all-zero data, ready for `write_region`; returns the byte offset of the data.
pub fn create_npy(path: &Path, dtype: DType, shape: &[usize]) -> Result<u64, NpyError> {
    let file = std::fs::File::create(path).map_err(|e| io_error("create", path, e))?;
    init_npy(&file, path, dtype, shape)
}

/// [`create_npy`] on `file`, already created empty (`path` only names it in errors).
pub fn init_npy(
    file: &std::fs::File,
    path: &Path,
    dtype: DType,
    shape: &[usize],
) -> Result<u64, NpyError> {
    let header = encode_header(dtype, shape);
    let data_bytes = shape
        .iter()
        .try_fold(dtype.itemsize() as u64, |acc, &d| acc.checked_mul(d as u64))
        .ok_or_else(|| {
            NpyError::Io(format!(
                "cannot create '{}': an array of shape {shape:?} is too large",
                path.display()
            ))
        })?;
    file.write_all_at(&header, 0)
        .map_err(|e| io_error("write", path, e))?;
    file.set_len(header.len() as u64 + data_bytes)
        .map_err(|e| io_error("size", path, e))?;
    Ok(header.len() as u64)
}

/// Writes `data` (in C order) as the hyper-rectangle at `offset` of the C-order array
/// of `global_shape` whose elements start at byte `data_offset` of the file.
pub fn write_region(
    path: &Path,
    data_offset: u64,
    global_shape: &[usize],
    offset: &[usize],
    data: &ArrayData,
) -> Result<(), NpyError> {
    check_region(path, global_shape, data.dtype(), offset, data.shape())?;
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| io_error("open", path, e))?;
    let runs = RegionRuns::new(global_shape, offset, data.shape());
    let writer = RegionWriter {
        file: &file,
        path,
        data_offset,
        runs: &runs,
    };
    // `iter()` walks in logical C order whatever the memory layout.
    match data {
        ArrayData::Bool(a) => writer.write(a.iter().map(|&v| [u8::from(v)])),
        ArrayData::Int8(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Int16(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Int32(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Int64(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::UInt8(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::UInt16(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::UInt32(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::UInt64(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Float16(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Float32(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Float64(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Complex64(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
        ArrayData::Complex128(a) => writer.write(a.iter().map(|v| v.to_le_bytes())),
    }
}

/// The byte runs `(start, length)` of the data of a C-order array of `global_shape`
/// that the region at `offset` of extent `shape` covers, in C order.
pub fn region_byte_runs(
    global_shape: &[usize],
    offset: &[usize],
    shape: &[usize],
    itemsize: usize,
) -> Vec<(usize, usize)> {
    let runs = RegionRuns::new(global_shape, offset, shape);
    let mut spans = Vec::new();
    let _ = runs.for_each(|file_element, _| {
        spans.push((file_element * itemsize, runs.run_len * itemsize));
        Ok(())
    });
    spans
}

/// [`region_byte_runs`] of a region of `dtype` elements, after checking that it lies
/// inside the array (errors name `path`).
pub fn checked_region_byte_runs(
    path: &Path,
    global_shape: &[usize],
    dtype: DType,
    offset: &[usize],
    shape: &[usize],
) -> Result<Vec<(usize, usize)>, NpyError> {
    check_region(path, global_shape, dtype, offset, shape)?;
    Ok(region_byte_runs(
        global_shape,
        offset,
        shape,
        dtype.itemsize(),
    ))
}

/// Writes `data` (in C order) as the region at `offset` of the C-order array of
/// `global_shape` held by a save's mapping, whole runs at a time. `Unsupported`
/// (nothing written) when the mapping cannot reserve the region's pages.
pub fn write_region_mapped(
    path: &Path,
    mapping: &WritableNpy,
    global_shape: &[usize],
    offset: &[usize],
    data: &ArrayData,
) -> Result<Reserved, NpyError> {
    let spans = checked_region_byte_runs(path, global_shape, data.dtype(), offset, data.shape())?;
    let reserved = mapping
        .reserve(&spans)
        .map_err(|e| io_error("save", path, e))?;
    if reserved == Reserved::Unsupported {
        return Ok(reserved);
    }
    let write = |result: std::io::Result<()>| result.map_err(|e| io_error("write", path, e));
    match data {
        ArrayData::Bool(a) => write(copy_runs(mapping, &spans, a, |&v| [u8::from(v)])),
        ArrayData::Int8(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Int16(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Int32(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Int64(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::UInt8(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::UInt16(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::UInt32(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::UInt64(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Float16(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Float32(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Float64(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Complex64(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
        ArrayData::Complex128(a) => write(copy_runs(mapping, &spans, a, |v| v.to_le_bytes())),
    }?;
    Ok(Reserved::Yes)
}

/// Copies the elements of `array` (in logical C order) into the byte runs `spans`
/// of the mapping, converted a cache-sized block at a time and streamed into the
/// file from there (see [`WritableNpy::stream_run`]).
fn copy_runs<T, const N: usize>(
    mapping: &WritableNpy,
    spans: &[(usize, usize)],
    array: &ArrayD<T>,
    to_bytes: impl Fn(&T) -> [u8; N],
) -> std::io::Result<()> {
    let mut elements = array.iter();
    let mut block = [0u8; 8192];
    let block_len = block.len() / N * N;
    for &(start, len) in spans {
        let mut done = 0;
        while done < len {
            let take = (len - done).min(block_len);
            let mut filled = 0;
            for (target, value) in block[..take].chunks_exact_mut(N).zip(elements.by_ref()) {
                target.copy_from_slice(&to_bytes(value));
                filled += N;
            }
            if filled != take {
                return Err(std::io::Error::other(
                    "internal error: a region holds fewer elements than its runs",
                ));
            }
            mapping.stream_run(start + done, &block[..take])?;
            done += take;
        }
    }
    mapping.streams_done();
    Ok(())
}

/// Writes `data` as a complete `.npy` file (format 1.0, C order). The file appears
/// under `path` only once it is complete.
pub fn write_array(path: &Path, data: &ArrayData) -> Result<(), NpyError> {
    // Like `np.save`, the file gets the user's default permissions (0666 minus umask).
    let temporary = tempfile::Builder::new()
        .prefix(".marsc-npy-")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(crate::paths::directory_of(path))
        .map_err(|e| io_error("create a temporary file for", path, e))?;
    let mut writer = BufWriter::new(temporary.as_file());
    writer
        .write_all(&encode_header(data.dtype(), data.shape()))
        .and_then(|()| write_elements(&mut writer, data))
        .and_then(|()| writer.flush())
        .map_err(|e| io_error("write", path, e))?;
    drop(writer);
    temporary
        .as_file()
        .sync_all()
        .map_err(|e| io_error("write", path, e))?;
    temporary
        .persist(path)
        .map_err(|e| io_error("write", path, e.error))?;
    Ok(())
}

/// Element counts and offsets of the contiguous runs that make up a region of a
/// C-order array.
pub(crate) struct RegionRuns {
    /// Elements per run.
    run_len: usize,
    /// Extents of the axes iterated over (those before the run's axes).
    outer_shape: Vec<usize>,
    /// Per outer axis, the element stride in the whole array.
    outer_strides: Vec<usize>,
    /// Element offset of the region's first element in the whole array.
    first: usize,
}

impl RegionRuns {
    fn new(global: &[usize], offset: &[usize], shape: &[usize]) -> RegionRuns {
        let ndim = global.len();
        let mut strides = vec![1usize; ndim];
        for axis in (0..ndim.saturating_sub(1)).rev() {
            strides[axis] = strides[axis + 1] * global[axis + 1];
        }
        // The run spans the trailing axes the region covers fully, plus one more.
        let mut split = ndim.saturating_sub(1);
        while split > 0 && shape[split] == global[split] {
            split -= 1;
        }
        let run_len = if ndim == 0 {
            1
        } else {
            shape[split] * strides[split]
        };
        let first = offset.iter().zip(&strides).map(|(o, s)| o * s).sum();
        RegionRuns {
            run_len,
            outer_shape: shape[..split].to_vec(),
            outer_strides: strides[..split].to_vec(),
            first,
        }
    }

    /// Calls `visit(element offset in the file, element offset in the region)` for each
    /// run in C order; stops at the first error.
    fn for_each(
        &self,
        mut visit: impl FnMut(usize, usize) -> Result<(), NpyError>,
    ) -> Result<(), NpyError> {
        if self.run_len == 0 || self.outer_shape.contains(&0) {
            return Ok(());
        }
        let mut index = vec![0usize; self.outer_shape.len()];
        let mut region_element = 0;
        loop {
            let file_element = self.first
                + index
                    .iter()
                    .zip(&self.outer_strides)
                    .map(|(i, s)| i * s)
                    .sum::<usize>();
            visit(file_element, region_element)?;
            region_element += self.run_len;
            // Advance the odometer over the outer axes.
            let mut axis = index.len();
            loop {
                if axis == 0 {
                    return Ok(());
                }
                axis -= 1;
                index[axis] += 1;
                if index[axis] < self.outer_shape[axis] {
                    break;
                }
                index[axis] = 0;
            }
        }
    }
}

/// Checks that the region lies inside the array, and that byte offsets into an array
/// of that shape cannot overflow (a hostile header may announce any shape).
fn check_region(
    path: &Path,
    global: &[usize],
    dtype: DType,
    offset: &[usize],
    shape: &[usize],
) -> Result<(), NpyError> {
    let addressable = global
        .iter()
        .try_fold(dtype.itemsize(), |bytes, &d| bytes.checked_mul(d))
        .is_some_and(|bytes| u64::try_from(bytes).is_ok_and(|b| b < u64::MAX / 2));
    if !addressable {
        return Err(NpyError::Malformed(format!(
            "'{}': an array of shape {global:?} is too large to address",
            path.display()
        )));
    }
    let fits = offset.len() == global.len()
        && shape.len() == global.len()
        && (0..global.len()).all(|axis| {
            offset[axis]
                .checked_add(shape[axis])
                .is_some_and(|end| end <= global[axis])
        });
    if fits {
        Ok(())
    } else {
        Err(NpyError::Malformed(format!(
            "'{}': the region at offset {offset:?} with shape {shape:?} does not fit in an array of shape {global:?}",
            path.display()
        )))
    }
}

fn io_error(action: &str, path: &Path, error: std::io::Error) -> NpyError {
    NpyError::Io(format!("cannot {action} '{}': {error}", path.display()))
}

/// Adds the file name to an error from the header reader.
fn name_file(path: &Path, error: NpyError) -> NpyError {
    match error {
        NpyError::Io(message) => {
            NpyError::Io(format!("cannot read '{}': {message}", path.display()))
        }
        NpyError::Malformed(message) => {
            NpyError::Malformed(format!("'{}': {message}", path.display()))
        }
    }
}

/// Turns a C-order array of the reversed shape into the Fortran-order array it is,
/// stored in C order.
fn reverse_axes(data: ArrayData) -> ArrayData {
    fn standard<T: Clone>(a: ArrayD<T>) -> ArrayD<T> {
        a.reversed_axes().as_standard_layout().into_owned()
    }
    match data {
        ArrayData::Bool(a) => ArrayData::Bool(standard(a)),
        ArrayData::Int8(a) => ArrayData::Int8(standard(a)),
        ArrayData::Int16(a) => ArrayData::Int16(standard(a)),
        ArrayData::Int32(a) => ArrayData::Int32(standard(a)),
        ArrayData::Int64(a) => ArrayData::Int64(standard(a)),
        ArrayData::UInt8(a) => ArrayData::UInt8(standard(a)),
        ArrayData::UInt16(a) => ArrayData::UInt16(standard(a)),
        ArrayData::UInt32(a) => ArrayData::UInt32(standard(a)),
        ArrayData::UInt64(a) => ArrayData::UInt64(standard(a)),
        ArrayData::Float16(a) => ArrayData::Float16(standard(a)),
        ArrayData::Float32(a) => ArrayData::Float32(standard(a)),
        ArrayData::Float64(a) => ArrayData::Float64(standard(a)),
        ArrayData::Complex64(a) => ArrayData::Complex64(standard(a)),
        ArrayData::Complex128(a) => ArrayData::Complex128(standard(a)),
    }
}

/// Bytes moved per positioned read or write of a region. Regions go through a
/// buffer this size rather than a byte copy of the whole chunk, which would double
/// a chunk's footprint while it is read or saved (a run under a memory limit
/// accounts for the chunk once).
const REGION_BLOCK: usize = 256 * 1024;

/// Where a region's runs are read from.
struct RegionReader<'a> {
    file: &'a std::fs::File,
    path: &'a Path,
    data_offset: u64,
    runs: &'a RegionRuns,
    /// The region's extent in file order.
    shape: &'a [usize],
}

impl RegionSource for RegionReader<'_> {
    fn decode<T: Copy + Default, const N: usize>(
        &self,
        from_le: impl Fn([u8; N]) -> T,
    ) -> Result<ArrayD<T>, NpyError> {
        let count: usize = self.shape.iter().product();
        let mut values = vec![T::default(); count];
        let mut buffer = vec![0u8; block_elements::<N>(self.runs.run_len) * N];
        self.runs.for_each(|file_element, region_element| {
            let run = &mut values[region_element..region_element + self.runs.run_len];
            let mut position = self.data_offset + (file_element * N) as u64;
            for block in run.chunks_mut(buffer.len() / N) {
                let bytes = &mut buffer[..block.len() * N];
                self.file
                    .read_exact_at(bytes, position)
                    .map_err(|e| self.read_error(e))?;
                for (value, element) in block.iter_mut().zip(bytes.chunks_exact(N)) {
                    let mut array = [0u8; N];
                    array.copy_from_slice(element);
                    *value = from_le(array);
                }
                position += bytes.len() as u64;
            }
            Ok(())
        })?;
        ArrayD::from_shape_vec(IxDyn(self.shape), values)
            .map_err(|e| NpyError::Malformed(format!("'{}': {e}", self.path.display())))
    }
}

impl RegionReader<'_> {
    fn read_error(&self, error: std::io::Error) -> NpyError {
        if error.kind() == std::io::ErrorKind::UnexpectedEof {
            truncated(self.path)
        } else {
            io_error("read", self.path, error)
        }
    }
}

fn truncated(path: &Path) -> NpyError {
    NpyError::Malformed(format!(
        "'{}': the file is truncated (it ends before the data its header announces)",
        path.display()
    ))
}

/// Elements per block for runs of `run_len` elements of `N` bytes.
fn block_elements<const N: usize>(run_len: usize) -> usize {
    (REGION_BLOCK / N).min(run_len).max(1)
}

/// Where a region's runs are written to.
struct RegionWriter<'a> {
    file: &'a std::fs::File,
    path: &'a Path,
    data_offset: u64,
    runs: &'a RegionRuns,
}

impl RegionWriter<'_> {
    /// Writes the region's elements, given in C order as little-endian bytes.
    fn write<const N: usize>(
        &self,
        mut elements: impl Iterator<Item = [u8; N]>,
    ) -> Result<(), NpyError> {
        let block = block_elements::<N>(self.runs.run_len);
        let mut buffer = Vec::with_capacity(block * N);
        self.runs.for_each(|file_element, _| {
            let mut position = self.data_offset + (file_element * N) as u64;
            let mut left = self.runs.run_len;
            while left > 0 {
                buffer.clear();
                let take = left.min(block);
                elements
                    .by_ref()
                    .take(take)
                    .for_each(|element| buffer.extend_from_slice(&element));
                if buffer.len() != take * N {
                    return Err(NpyError::Io(format!(
                        "internal error: fewer elements than the region of '{}' holds",
                        self.path.display()
                    )));
                }
                self.file
                    .write_all_at(&buffer, position)
                    .map_err(|e| io_error("write", self.path, e))?;
                position += buffer.len() as u64;
                left -= take;
            }
            Ok(())
        })
    }
}

fn write_elements(out: &mut impl Write, data: &ArrayData) -> std::io::Result<()> {
    // `iter()` walks in logical C order whatever the memory layout.
    match data {
        ArrayData::Bool(a) => a.iter().try_for_each(|v| out.write_all(&[u8::from(*v)])),
        ArrayData::Int8(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Int16(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Int32(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Int64(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::UInt8(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::UInt16(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::UInt32(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::UInt64(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Float16(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Float32(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Float64(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Complex64(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
        ArrayData::Complex128(a) => a.iter().try_for_each(|v| out.write_all(&v.to_le_bytes())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(global: &[usize], offset: &[usize], shape: &[usize]) -> (usize, Vec<(usize, usize)>) {
        let runs = RegionRuns::new(global, offset, shape);
        let mut seen = Vec::new();
        runs.for_each(|f, r| {
            seen.push((f, r));
            Ok(())
        })
        .unwrap();
        (runs.run_len, seen)
    }

    #[test]
    fn merges_fully_covered_trailing_axes() {
        assert_eq!(
            runs(&[4, 5, 6], &[1, 0, 0], &[2, 5, 6]),
            (60, vec![(30, 0)])
        );
        assert_eq!(
            runs(&[4, 5, 6], &[1, 2, 0], &[2, 2, 6]),
            (12, vec![(42, 0), (72, 12)])
        );
        assert_eq!(
            runs(&[3, 4], &[0, 1], &[3, 2]),
            (2, vec![(1, 0), (5, 2), (9, 4)])
        );
        assert_eq!(runs(&[], &[], &[]), (1, vec![(0, 0)]));
        assert_eq!(runs(&[3, 4], &[1, 1], &[0, 2]).1, vec![]);
    }

    #[test]
    fn regions_larger_than_a_block_round_trip() {
        // Rows of 70,000 float64 (560 KB) span several blocks; the region's runs
        // start mid-row and end mid-block.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.npy");
        let global = [3, 70_000];
        let data_offset = create_npy(&path, DType::Float64, &global).unwrap();
        let region = ArrayD::from_shape_fn(IxDyn(&[2, 65_001]), |index| {
            (index[0] * 100_000 + index[1]) as f64 + 0.5
        });
        let data = ArrayData::Float64(region.clone());
        write_region(&path, data_offset, &global, &[1, 4_999], &data).unwrap();
        let ArrayData::Float64(whole) = read_array(&path).unwrap() else {
            panic!("not float64");
        };
        assert_eq!(whole[[0, 5_000]], 0.0);
        assert_eq!(whole[[1, 4_998]], 0.0);
        assert_eq!(whole[[1, 4_999]], 0.5);
        assert_eq!(whole[[2, 70_000 - 1]], 165_000.5);
        assert_eq!(whole[[2, 4_998]], 0.0);
        let header = read_header(&path).unwrap();
        let back = read_region(&path, &header, &[1, 4_999], &[2, 65_001]).unwrap();
        assert_eq!(back, ArrayData::Float64(region));
    }
}
