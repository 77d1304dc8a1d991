//! A load of a Zarr array (`fromzarr`): the array is opened once per run, before
//! the run, and checked against what the script was compiled with; then every
//! chunk reads its box: the worker allocates the box's buffer once and decodes the
//! store chunks the box touches one after another with `zarrs` (a missing one reads
//! as the array's fill value), copying each straight into its place.
//!
//! Why not one `zarrs` call for the whole box: `retrieve_array_subset` decodes into
//! a byte vector of its own and then converts it to `Vec<T>`, and since a `Vec<u8>`
//! cannot become a `Vec<f64>` in place (alignment) that is a second buffer and a
//! second pass over the box; both buffers are fresh chunk-sized memory whose page
//! faults dominated a read (issue 23's benchmark: 2 GB of blosc-lz4 read 1.6x slower
//! than dask). It also hands the chunks to rayon's pool while the worker waits.

use super::{codec_options, open_array, OpenedArray};
use crate::array::{try_filled, ArrayData};
use crate::dtype::DType;
use crate::huge_alloc::ZeroIsValid;
use crate::storage::{StoreError, StoreReader};
use ndarray::{ArrayD, ArrayViewMutD, Axis, IxDyn, Slice};
use std::any::Any;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use zarrs::array::{ArrayBytes, ArraySubset};

/// One load of a Zarr array.
pub struct ZarrReader {
    path: PathBuf,
    dtype: DType,
    shape: Vec<usize>,
    label: u32,
    opened: OnceLock<Result<OpenedArray, StoreError>>,
}

impl ZarrReader {
    pub fn new(path: &Path, dtype: DType, shape: &[usize], label: u32) -> ZarrReader {
        ZarrReader {
            path: path.to_path_buf(),
            dtype,
            shape: shape.to_vec(),
            label,
            opened: OnceLock::new(),
        }
    }

    /// The array, opened and checked on first use.
    fn array(&self) -> Result<&OpenedArray, StoreError> {
        self.opened
            .get_or_init(|| self.open_checked())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn open_checked(&self) -> Result<OpenedArray, StoreError> {
        let array = open_array(&self.path)?;
        let dtype = super::marsc_dtype(array.data_type());
        let shape: Vec<usize> = array.shape().iter().map(|&s| s as usize).collect();
        if dtype != Some(self.dtype) || shape != self.shape {
            return Err(StoreError::Data(format!(
                "the Zarr array '{}' changed after the script was compiled: it held {} of shape {}, it now holds {} of shape {}",
                self.path.display(),
                self.dtype.name(),
                super::tuple_text(&self.shape),
                array.data_type(),
                super::tuple_text(&shape),
            )));
        }
        Ok(array)
    }

    /// The box at `offset` of `shape`, decoded store chunk by store chunk on this
    /// thread into one buffer.
    fn read<T: FromStoreBytes>(
        &self,
        array: &OpenedArray,
        offset: &[usize],
        shape: &[usize],
    ) -> Result<ArrayD<T>, StoreError> {
        let cannot = |e: &dyn fmt::Display| {
            StoreError::Io(format!(
                "cannot read the Zarr array '{}': {e}",
                self.path.display()
            ))
        };
        let ranges: Vec<Range<u64>> = offset
            .iter()
            .zip(shape)
            .map(|(&start, &len)| start as u64..(start + len) as u64)
            .collect();
        let region = ArraySubset::new_with_ranges(&ranges);
        let len = shape.iter().product();
        let values = try_filled(len, T::ZERO_BITS).map_err(|e| StoreError::Io(e.to_string()))?;
        let mut out = ArrayD::from_shape_vec(IxDyn(shape), values).map_err(|e| {
            StoreError::Internal(format!(
                "internal error: a region of '{}' has the wrong size: {e}",
                self.path.display()
            ))
        })?;
        let chunks = array
            .chunks_in_array_subset(&region)
            .map_err(|e| cannot(&e))?
            .ok_or_else(|| cannot(&"the region's chunks cannot be determined"))?;
        let options = codec_options();
        for chunk in chunks.indices() {
            let part = array
                .chunk_subset(&chunk)
                .map_err(|e| cannot(&e))?
                .overlap(&region)
                .map_err(|e| cannot(&e))?;
            if part.num_elements() == 0 {
                continue;
            }
            // One store chunk (or the part of it in the box): a single-chunk read,
            // which zarrs decodes on this thread.
            let bytes: ArrayBytes<'static> = array
                .retrieve_array_subset_opt(&part, &options)
                .map_err(|e| cannot(&e))?;
            let bytes = bytes.into_fixed().map_err(|e| cannot(&e))?;
            let mut target = out.slice_each_axis_mut(|axis| {
                let i = axis.axis.index();
                let start = (part.start()[i] - ranges[i].start) as usize;
                Slice::from(start..start + part.shape()[i] as usize)
            });
            copy_into(&mut target, &bytes).map_err(|e| cannot(&e))?;
        }
        Ok(out)
    }
}

/// Copies the C-order elements `bytes` (native byte order, as zarrs decodes them)
/// into `target`, lane by lane along the last axis.
fn copy_into<T: FromStoreBytes>(target: &mut ArrayViewMutD<T>, bytes: &[u8]) -> Result<(), String> {
    let count = target.len();
    if bytes.len() != count * T::SIZE {
        return Err(format!(
            "a store chunk decoded to {} bytes where {} were expected",
            bytes.len(),
            count * T::SIZE
        ));
    }
    if count == 0 {
        return Ok(());
    }
    let last = Axis(target.ndim().saturating_sub(1));
    if target.ndim() == 0 {
        target.map_inplace(|value| *value = T::from_bytes(bytes));
        return Ok(());
    }
    let lane_bytes = target.len_of(last) * T::SIZE;
    for (mut lane, source) in target
        .lanes_mut(last)
        .into_iter()
        .zip(bytes.chunks_exact(lane_bytes))
    {
        match lane.as_slice_mut() {
            Some(lane) => T::copy_from(lane, source),
            None => {
                for (value, item) in lane.iter_mut().zip(source.chunks_exact(T::SIZE)) {
                    *value = T::from_bytes(item);
                }
            }
        }
    }
    Ok(())
}

/// A chunk dtype read from the native-endian bytes zarrs decodes to.
trait FromStoreBytes: ZeroIsValid {
    /// Bytes per element.
    const SIZE: usize;
    /// The element whose bytes start `bytes`.
    fn from_bytes(bytes: &[u8]) -> Self;
    /// `dst.len()` elements from `src` (exactly `dst.len() * SIZE` bytes).
    fn copy_from(dst: &mut [Self], src: &[u8]) {
        for (value, item) in dst.iter_mut().zip(src.chunks_exact(Self::SIZE)) {
            *value = Self::from_bytes(item);
        }
    }
}

impl FromStoreBytes for bool {
    const SIZE: usize = 1;
    fn from_bytes(bytes: &[u8]) -> bool {
        bytes.first().is_some_and(|&b| b != 0)
    }
}

macro_rules! from_store_bytes {
    ($($t:ty),*) => {$(
        impl FromStoreBytes for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn from_bytes(bytes: &[u8]) -> $t {
                let mut raw = [0u8; std::mem::size_of::<$t>()];
                raw.copy_from_slice(&bytes[..Self::SIZE]);
                <$t>::from_ne_bytes(raw)
            }
        }
    )*};
}
from_store_bytes!(i8, i16, i32, i64, u8, u16, u32, u64, half::f16, f32, f64);

impl StoreReader for ZarrReader {
    fn open(&self) -> Result<(), StoreError> {
        self.array().map(drop)
    }

    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError> {
        if shape.contains(&0) {
            return ArrayData::try_full(shape, crate::Scalar::from_i64(0, self.dtype))
                .map_err(|e| StoreError::Io(e.to_string()));
        }
        let array = self.array()?;
        Ok(match self.dtype {
            DType::Bool => ArrayData::Bool(self.read(array, offset, shape)?),
            DType::Int8 => ArrayData::Int8(self.read(array, offset, shape)?),
            DType::Int16 => ArrayData::Int16(self.read(array, offset, shape)?),
            DType::Int32 => ArrayData::Int32(self.read(array, offset, shape)?),
            DType::Int64 => ArrayData::Int64(self.read(array, offset, shape)?),
            DType::UInt8 => ArrayData::UInt8(self.read(array, offset, shape)?),
            DType::UInt16 => ArrayData::UInt16(self.read(array, offset, shape)?),
            DType::UInt32 => ArrayData::UInt32(self.read(array, offset, shape)?),
            DType::UInt64 => ArrayData::UInt64(self.read(array, offset, shape)?),
            DType::Float16 => ArrayData::Float16(self.read(array, offset, shape)?),
            DType::Float32 => ArrayData::Float32(self.read(array, offset, shape)?),
            DType::Float64 => ArrayData::Float64(self.read(array, offset, shape)?),
            DType::Complex64 | DType::Complex128 => {
                return Err(StoreError::NotSupported(format!(
                    "not supported yet: {} Zarr arrays",
                    self.dtype
                )))
            }
        })
    }

    fn label(&self) -> u32 {
        self.label
    }

    fn same_as(&self, other: &dyn StoreReader) -> bool {
        (other as &dyn Any)
            .downcast_ref::<ZarrReader>()
            .is_some_and(|other| {
                self.path == other.path
                    && self.dtype == other.dtype
                    && self.shape == other.shape
                    && self.label == other.label
            })
    }
}

impl fmt::Debug for ZarrReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ZarrReader")
            .field("path", &self.path)
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .field("label", &self.label)
            .finish()
    }
}
