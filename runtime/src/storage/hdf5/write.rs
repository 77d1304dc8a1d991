//! A save to an HDF5 dataset (`tohdf5`): create → write regions → commit, or abort.
//!
//! - A new file is created under a hidden temporary name beside it
//!   (`.NAME.marsc-RANDOM.partial`, exclusively), holds the dataset under its final
//!   name (with the groups above it), and is renamed into place on commit.
//! - Into an existing HDF5 file, the dataset is created at the file's root under a
//!   hidden name (`.NAME.marsc-RANDOM.partial`); the commit creates the groups above
//!   it, removes a dataset already under its name and moves it there
//!   (`H5Lmove`). A failed run removes the hidden dataset: the file's datasets stay
//!   as they were (HDF5 does not give the space back, so the file may grow).
//!
//! Regions are written one at a time under `hdf5-metno`'s process-wide lock. The
//! lowering rechunks the tensor to whole dataset chunks, so a compressed chunk is
//! written once, whole.

use super::{descriptor, tuple_text, Hdf5Save};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::storage::{StoreError, StoreWriter};
use hdf5::{Hyperslab, Selection, SliceOrIndex};
use std::any::Any;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The run state of a save, from its create on.
struct Created {
    file: hdf5::File,
    dataset: hdf5::Dataset,
    /// The new file's temporary name, until the commit or abort.
    temporary_file: Option<PathBuf>,
    /// The dataset's hidden name in an existing file, until the commit or abort.
    temporary_dataset: Option<String>,
}

/// The writer of one `tohdf5`.
pub struct Hdf5Writer {
    /// The file.
    path: PathBuf,
    save: Hdf5Save,
    dtype: DType,
    shape: Vec<usize>,
    state: Mutex<Option<Created>>,
}

impl Hdf5Writer {
    pub fn new(path: &Path, save: &Hdf5Save, dtype: DType, shape: &[usize]) -> Hdf5Writer {
        Hdf5Writer {
            path: path.to_path_buf(),
            save: save.clone(),
            dtype,
            shape: shape.to_vec(),
            state: Mutex::new(None),
        }
    }

    fn state(&self) -> MutexGuard<'_, Option<Created>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn shown(&self) -> String {
        self.path.display().to_string()
    }

    fn create_state(&self) -> Result<Created, String> {
        let shown = self.shown();
        if std::fs::symlink_metadata(&self.path).is_ok() {
            if !self.path.is_file() || !super::has_signature(&self.path) {
                return Err(format!(
                    "'{shown}' exists and is not an HDF5 file; marsc does not replace it"
                ));
            }
            return self.create_in_existing();
        }
        let parent = crate::paths::directory_of(&self.path);
        if !parent.is_dir() {
            return Err(format!(
                "cannot create '{shown}': the directory '{}' does not exist",
                parent.display()
            ));
        }
        let (handle, temporary) =
            crate::storage::npy::create_temporary(&self.path).map_err(|e| e.to_string())?;
        drop(handle);
        let made = (|| -> hdf5::Result<(hdf5::File, hdf5::Dataset)> {
            let file = super::open_file(&temporary, hdf5::OpenMode::Create)?;
            let mut group: hdf5::Group = (*file).clone();
            let (groups, name) = split_last(&self.save.dataset);
            for name in groups {
                group = group.create_group(name)?;
            }
            let dataset = self.create_dataset(&group, name)?;
            Ok((file, dataset))
        })();
        match made {
            Ok((file, dataset)) => Ok(Created {
                file,
                dataset,
                temporary_file: Some(temporary),
                temporary_dataset: None,
            }),
            Err(error) => {
                let _ = std::fs::remove_file(&temporary);
                Err(error.to_string())
            }
        }
    }

    /// Writes the dataset under a hidden name at the root of the existing file.
    fn create_in_existing(&self) -> Result<Created, String> {
        let file =
            super::open_file(&self.path, hdf5::OpenMode::ReadWrite).map_err(|e| e.to_string())?;
        let target = &self.save.dataset;
        // What the commit will replace or create must be a dataset and groups.
        let mut prefix = String::new();
        let parts: Vec<&str> = target.split('/').collect();
        for (i, name) in parts.iter().enumerate() {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(name);
            if !file.link_exists(&prefix) {
                break;
            }
            let last = i + 1 == parts.len();
            if last && file.dataset(&prefix).is_err() {
                return Err(format!(
                    "'{prefix}' in '{}' is a group, not a dataset; marsc replaces only a dataset",
                    self.shown()
                ));
            }
            if !last && file.group(&prefix).is_err() {
                return Err(format!(
                    "'{prefix}' in '{}' is not a group, so it cannot hold '{target}'",
                    self.shown()
                ));
            }
        }
        let hidden = hidden_name(target);
        let dataset = self
            .create_dataset(&file, &hidden)
            .map_err(|e| e.to_string())?;
        Ok(Created {
            file,
            dataset,
            temporary_file: None,
            temporary_dataset: Some(hidden),
        })
    }

    fn create_dataset(&self, group: &hdf5::Group, name: &str) -> hdf5::Result<hdf5::Dataset> {
        let descriptor = descriptor(self.dtype).ok_or(super::FLOAT16_NOT_SUPPORTED)?;
        let builder = group.new_dataset_builder().empty_as(descriptor);
        if self.shape.is_empty() {
            return builder.shape(()).create(name);
        }
        let mut builder = builder.shape(self.shape.clone());
        // HDF5 chunks hold at least one element and at most the dataset's extent.
        let chunked = self
            .save
            .chunks
            .as_ref()
            .filter(|_| !self.shape.contains(&0));
        match chunked {
            None => builder = builder.no_chunk(),
            Some(chunks) => {
                let chunks: Vec<usize> = chunks
                    .iter()
                    .zip(&self.shape)
                    .map(|(&c, &len)| c.clamp(1, len))
                    .collect();
                builder = builder.chunk(chunks);
                if let Some(level) = self.save.gzip {
                    builder = builder.deflate(level);
                }
            }
        }
        builder.create(name)
    }

    fn write<T: hdf5::H5Type + Clone>(
        &self,
        dataset: &hdf5::Dataset,
        offset: &[usize],
        data: &ndarray::ArrayD<T>,
    ) -> hdf5::Result<()> {
        let data = data.as_standard_layout();
        if offset.is_empty() {
            return match data.iter().next() {
                Some(value) => dataset.write_scalar(value),
                None => Ok(()),
            };
        }
        let slab: Vec<SliceOrIndex> = offset
            .iter()
            .zip(data.shape())
            .map(|(&start, &len)| SliceOrIndex::from(start..start + len))
            .collect();
        dataset.write_slice(data.view(), Selection::from(Hyperslab::from(slab)))
    }

    fn finish(&self, created: Created) -> Result<(), String> {
        let Created {
            file,
            dataset,
            temporary_file,
            temporary_dataset,
        } = created;
        drop(dataset);
        let io = |e: hdf5::Error| self.error(e.to_string());
        if let Some(hidden) = temporary_dataset {
            let target = &self.save.dataset;
            if file.link_exists(target) {
                file.unlink(target).map_err(io)?;
            }
            let (groups, _) = split_last(target);
            let mut prefix = String::new();
            for name in groups {
                if !prefix.is_empty() {
                    prefix.push('/');
                }
                prefix.push_str(name);
                if !file.link_exists(&prefix) {
                    file.create_group(&prefix).map_err(io)?;
                }
            }
            file.relink(&hidden, target).map_err(io)?;
        }
        file.flush().map_err(io)?;
        file.close().map_err(io)?;
        if let Some(temporary) = temporary_file {
            std::fs::rename(&temporary, &self.path).map_err(|e| {
                let _ = std::fs::remove_file(&temporary);
                self.error(e.to_string())
            })?;
        }
        Ok(())
    }
}

/// `a/b/c` as (`[a, b]`, `c`).
fn split_last(path: &str) -> (Vec<&str>, &str) {
    let mut parts: Vec<&str> = path.split('/').collect();
    let last = parts.pop().unwrap_or("");
    (parts, last)
}

/// A hidden name for a dataset being written: `.NAME.marsc-RANDOM.partial`.
fn hidden_name(target: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let leaf: String = split_last(target).1.chars().take(100).collect();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let random = nanos
        ^ (u64::from(std::process::id()) << 32)
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    format!(".{leaf}.marsc-{random:016x}.partial")
}

impl StoreWriter for Hdf5Writer {
    fn path(&self) -> &Path {
        &self.path
    }

    fn create(&self) -> Result<(), StoreError> {
        let mut state = self.state();
        if state.is_none() {
            *state = Some(
                self.create_state()
                    .map_err(|e| StoreError::Io(self.error(e)))?,
            );
        }
        Ok(())
    }

    fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError> {
        if data.is_empty() {
            return Ok(());
        }
        let state = self.state();
        let Some(created) = state.as_ref() else {
            return Err(StoreError::Internal(format!(
                "internal error: '{}' was not created",
                self.shown()
            )));
        };
        // Every dtype HDF5 can describe (float16 never gets here: `create` refuses it).
        macro_rules! write_as {
            ($($variant:ident),*) => {
                match data {
                    $(ArrayData::$variant(a) => self.write(&created.dataset, offset, a),)*
                    ArrayData::Float16(_) => {
                        return Err(StoreError::NotSupported(
                            super::FLOAT16_NOT_SUPPORTED.to_string(),
                        ))
                    }
                    ArrayData::Complex64(_) | ArrayData::Complex128(_) => {
                        return Err(StoreError::NotSupported(
                            super::COMPLEX_NOT_SUPPORTED.to_string(),
                        ))
                    }
                }
            };
        }
        write_as!(Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float32, Float64)
            .map_err(|e| StoreError::Io(self.error(e.to_string())))
    }

    fn commit(&self) -> Result<(), StoreError> {
        let mut state = self.state();
        match state.take() {
            Some(created) => self.finish(created).map_err(StoreError::Io),
            None => Err(StoreError::Internal(format!(
                "internal error: '{}' was not created",
                self.shown()
            ))),
        }
    }

    fn abort(&self) {
        if let Some(created) = self.state().take() {
            let Created {
                file,
                dataset,
                temporary_file,
                temporary_dataset,
            } = created;
            drop(dataset);
            if let Some(hidden) = temporary_dataset {
                let _ = file.unlink(&hidden);
            }
            let _ = file.close();
            if let Some(temporary) = temporary_file {
                let _ = std::fs::remove_file(temporary);
            }
        }
    }

    fn temporary(&self) -> Option<PathBuf> {
        self.state().as_ref().and_then(|c| c.temporary_file.clone())
    }

    fn error(&self, message: String) -> String {
        let shown = self.shown();
        if message.contains(&shown) {
            message
        } else {
            format!(
                "cannot write the HDF5 dataset '{}' in '{shown}': {message}",
                self.save.dataset
            )
        }
    }

    fn same_as(&self, other: &dyn StoreWriter) -> bool {
        (other as &dyn Any)
            .downcast_ref::<Hdf5Writer>()
            .is_some_and(|other| {
                self.path == other.path
                    && self.save == other.save
                    && self.dtype == other.dtype
                    && self.shape == other.shape
            })
    }
}

impl fmt::Debug for Hdf5Writer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hdf5Writer")
            .field("path", &self.path)
            .field("save", &self.save)
            .field("dtype", &self.dtype)
            .field("shape", &tuple_text(&self.shape))
            .finish()
    }
}
