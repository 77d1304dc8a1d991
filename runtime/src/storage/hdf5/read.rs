//! A load of an HDF5 dataset (`fromhdf5`): the file is opened read-only once per
//! run, before the run, and the dataset checked against what the script was
//! compiled with; then every chunk reads its box as one hyperslab (HDF5 inflates
//! the stored chunks it touches).

use super::{marsc_dtype, open_dataset, tuple_text};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::storage::{StoreError, StoreReader};
use hdf5::{Hyperslab, Selection, SliceOrIndex};
use ndarray::{ArrayD, IxDyn};
use std::any::Any;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One load of an HDF5 dataset.
pub struct Hdf5Reader {
    file: PathBuf,
    dataset: String,
    dtype: DType,
    shape: Vec<usize>,
    label: u32,
    opened: OnceLock<Result<hdf5::Dataset, StoreError>>,
}

impl Hdf5Reader {
    pub fn new(file: &Path, dataset: &str, dtype: DType, shape: &[usize], label: u32) -> Self {
        Hdf5Reader {
            file: file.to_path_buf(),
            dataset: dataset.to_string(),
            dtype,
            shape: shape.to_vec(),
            label,
            opened: OnceLock::new(),
        }
    }

    fn dataset(&self) -> Result<&hdf5::Dataset, StoreError> {
        self.opened
            .get_or_init(|| self.open_checked())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn open_checked(&self) -> Result<hdf5::Dataset, StoreError> {
        let dataset = open_dataset(&self.file, &self.dataset)?;
        let dtype = marsc_dtype(&dataset, &self.file, &self.dataset).ok();
        let shape = dataset.shape();
        if dtype != Some(self.dtype) || shape != self.shape {
            return Err(StoreError::Data(format!(
                "the HDF5 dataset '{}' in '{}' changed after the script was compiled: it held {} of shape {}, it now holds {} of shape {}",
                self.dataset,
                self.file.display(),
                self.dtype.name(),
                tuple_text(&self.shape),
                dtype.map_or("another datatype", DType::name),
                tuple_text(&shape),
            )));
        }
        Ok(dataset)
    }

    fn read<T: hdf5::H5Type + Clone>(
        &self,
        dataset: &hdf5::Dataset,
        offset: &[usize],
        shape: &[usize],
    ) -> Result<ArrayD<T>, StoreError> {
        let failed = |e: hdf5::Error| {
            StoreError::Io(format!(
                "cannot read '{}' in '{}': {e}",
                self.dataset,
                self.file.display()
            ))
        };
        if shape.is_empty() {
            let value: T = dataset.read_scalar().map_err(failed)?;
            return Ok(ArrayD::from_elem(IxDyn(&[]), value));
        }
        let slab: Vec<SliceOrIndex> = offset
            .iter()
            .zip(shape)
            .map(|(&start, &len)| SliceOrIndex::from(start..start + len))
            .collect();
        dataset
            .read_slice::<T, _, IxDyn>(Selection::from(Hyperslab::from(slab)))
            .map_err(failed)
    }
}

impl StoreReader for Hdf5Reader {
    fn open(&self) -> Result<(), StoreError> {
        self.dataset().map(drop)
    }

    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError> {
        if shape.contains(&0) {
            return ArrayData::try_full(shape, crate::Scalar::from_i64(0, self.dtype))
                .map_err(|e| StoreError::Io(e.to_string()));
        }
        let dataset = self.dataset()?;
        Ok(match self.dtype {
            DType::Bool => ArrayData::Bool(self.read(dataset, offset, shape)?),
            DType::Int8 => ArrayData::Int8(self.read(dataset, offset, shape)?),
            DType::Int16 => ArrayData::Int16(self.read(dataset, offset, shape)?),
            DType::Int32 => ArrayData::Int32(self.read(dataset, offset, shape)?),
            DType::Int64 => ArrayData::Int64(self.read(dataset, offset, shape)?),
            DType::UInt8 => ArrayData::UInt8(self.read(dataset, offset, shape)?),
            DType::UInt16 => ArrayData::UInt16(self.read(dataset, offset, shape)?),
            DType::UInt32 => ArrayData::UInt32(self.read(dataset, offset, shape)?),
            DType::UInt64 => ArrayData::UInt64(self.read(dataset, offset, shape)?),
            DType::Float16 => {
                return Err(StoreError::NotSupported(
                    super::FLOAT16_NOT_SUPPORTED.to_string(),
                ))
            }
            DType::Complex64 | DType::Complex128 => {
                return Err(StoreError::NotSupported(
                    super::COMPLEX_NOT_SUPPORTED.to_string(),
                ))
            }
            DType::Float32 => ArrayData::Float32(self.read(dataset, offset, shape)?),
            DType::Float64 => ArrayData::Float64(self.read(dataset, offset, shape)?),
        })
    }

    fn label(&self) -> u32 {
        self.label
    }

    fn same_as(&self, other: &dyn StoreReader) -> bool {
        (other as &dyn Any)
            .downcast_ref::<Hdf5Reader>()
            .is_some_and(|other| {
                self.file == other.file
                    && self.dataset == other.dataset
                    && self.dtype == other.dtype
                    && self.shape == other.shape
                    && self.label == other.label
            })
    }
}

impl fmt::Debug for Hdf5Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hdf5Reader")
            .field("file", &self.file)
            .field("dataset", &self.dataset)
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .field("label", &self.label)
            .finish()
    }
}
