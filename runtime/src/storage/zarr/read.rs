//! A load of a Zarr array (`fromzarr`): the array is opened once per run, before
//! the run, and checked against what the script was compiled with; then every
//! chunk reads its box with `zarrs`, which decodes the store chunks the box touches
//! and fills missing ones with the array's fill value.

use super::{codec_options, open_array, OpenedArray};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::storage::StoreReader;
use ndarray::{ArrayD, IxDyn};
use std::any::Any;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use zarrs::array::{ArraySubset, ElementOwned};

/// One load of a Zarr array.
pub struct ZarrReader {
    path: PathBuf,
    dtype: DType,
    shape: Vec<usize>,
    label: u32,
    opened: OnceLock<Result<OpenedArray, String>>,
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
    fn array(&self) -> Result<&OpenedArray, String> {
        self.opened
            .get_or_init(|| self.open_checked())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn open_checked(&self) -> Result<OpenedArray, String> {
        let array = open_array(&self.path).map_err(|e| e.0)?;
        let dtype = super::marsc_dtype(array.data_type());
        let shape: Vec<usize> = array.shape().iter().map(|&s| s as usize).collect();
        if dtype != Some(self.dtype) || shape != self.shape {
            return Err(format!(
                "the Zarr array '{}' changed after the script was compiled: it held {} of shape {}, it now holds {} of shape {}",
                self.path.display(),
                self.dtype.name(),
                super::tuple_text(&self.shape),
                array.data_type(),
                super::tuple_text(&shape),
            ));
        }
        Ok(array)
    }

    fn read<T: ElementOwned + Clone>(
        &self,
        array: &OpenedArray,
        offset: &[usize],
        shape: &[usize],
    ) -> Result<ArrayD<T>, String> {
        let ranges: Vec<Range<u64>> = offset
            .iter()
            .zip(shape)
            .map(|(&start, &len)| start as u64..(start + len) as u64)
            .collect();
        let subset = ArraySubset::new_with_ranges(&ranges);
        let elements: Vec<T> = array
            .retrieve_array_subset_opt(&subset, &codec_options())
            .map_err(|e| format!("cannot read the Zarr array '{}': {e}", self.path.display()))?;
        ArrayD::from_shape_vec(IxDyn(shape), elements).map_err(|e| {
            format!(
                "internal error: a region of '{}' has the wrong size: {e}",
                self.path.display()
            )
        })
    }
}

impl StoreReader for ZarrReader {
    fn open(&self) -> Result<(), String> {
        self.array().map(drop)
    }

    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, String> {
        if shape.contains(&0) {
            return ArrayData::try_full(shape, crate::Scalar::from_i64(0, self.dtype))
                .map_err(|e| e.to_string());
        }
        let array = self.array()?;
        Ok(match self.dtype {
            DType::Bool => ArrayData::Bool(self.read(array, offset, shape)?),
            DType::Int32 => ArrayData::Int32(self.read(array, offset, shape)?),
            DType::Int64 => ArrayData::Int64(self.read(array, offset, shape)?),
            DType::Float32 => ArrayData::Float32(self.read(array, offset, shape)?),
            DType::Float64 => ArrayData::Float64(self.read(array, offset, shape)?),
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
