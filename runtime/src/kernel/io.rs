//! The kernels that touch files: reading a chunk's region of a `.npy` file (or copying
//! it out of the file's mapping, for `mmap_mode='r'`), and the three parts of a save
//! (create a temporary file, write each chunk's region into it, rename it into place
//! once complete, so a failed run never leaves a half-written file under the real
//! name). Errors name the user's file.
//!
//! The init maps the temporary file (see [`super::writable`]); regions copy into the
//! mapping, or JIT kernels compute into it ([`crate::jit::SaveSink`]). Where the file
//! cannot be mapped or its pages cannot be reserved, regions `pwrite` as before.

use super::writable::{MappingSlot, Reserved, WritableNpy};
use super::{ChunkValue, Kernel};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::npy::{create_npy, read_region, write_region, write_region_mapped};
use crate::npy_header::{encode_header, NpyError};
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

/// One `save(path, x)`: where it goes and what the file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFile {
    /// The file the user named.
    pub path: PathBuf,
    /// Where the data is written until every region is in (same directory, so the
    /// final rename is atomic).
    pub temporary: PathBuf,
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// Byte offset of the data, the length of the header `create_npy` writes.
    pub data_offset: u64,
    /// The temporary file's writable mapping, once the init has made it.
    pub mapping: MappingSlot,
}

impl SaveFile {
    /// The save of an array of `dtype` and `shape` to `path`.
    pub fn new(path: &Path, dtype: DType, shape: &[usize]) -> SaveFile {
        SaveFile {
            path: path.to_path_buf(),
            temporary: SaveFile::temporary_for(path),
            dtype,
            shape: shape.to_vec(),
            data_offset: encode_header(dtype, shape).len() as u64,
            mapping: MappingSlot::default(),
        }
    }

    /// The bytes of element data.
    pub fn data_bytes(&self) -> u64 {
        self.shape
            .iter()
            .fold(self.dtype.itemsize() as u64, |acc, &d| {
                acc.saturating_mul(d as u64)
            })
    }

    /// Creates the temporary file and maps it. An init that runs again (its result
    /// was lost with a worker) keeps the file and its mapping: recreating it would
    /// drop the regions already written and truncate pages other writers map.
    pub fn create(&self) -> Result<(), String> {
        if self.mapping.is_set() {
            return Ok(());
        }
        let data_offset =
            create_npy(&self.temporary, self.dtype, &self.shape).map_err(|e| saving(self, e))?;
        if data_offset != self.data_offset {
            return Err(format!(
                "internal error: the header of '{}' is {data_offset} bytes, not {}",
                self.path.display(),
                self.data_offset
            ));
        }
        // Without a mapping the regions write with `pwrite`, so failing to map is
        // not an error.
        if let Ok(mapping) = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&self.temporary)
            .and_then(|file| WritableNpy::map(file, self.data_offset, self.data_bytes()))
        {
            self.mapping.set(mapping);
        }
        Ok(())
    }

    /// Writes `data` as the region at `offset`: into the mapping when there is one
    /// that can reserve its pages, else with `pwrite`.
    pub fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), String> {
        if let Some(mapping) = self.mapping.get() {
            let written = write_region_mapped(&self.temporary, &mapping, &self.shape, offset, data)
                .map_err(|e| saving(self, e))?;
            if written == Reserved::Yes {
                return Ok(());
            }
        }
        write_region(&self.temporary, self.data_offset, &self.shape, offset, data)
            .map_err(|e| saving(self, e))
    }

    /// An error about this save, naming the user's file.
    pub fn error(&self, message: String) -> String {
        saving(self, NpyError::Io(message))
    }

    /// The temporary name used for `path` by this process: hidden, next to it.
    pub fn temporary_for(path: &Path) -> PathBuf {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        path.with_file_name(format!(".{name}.marsc-{}.partial", std::process::id()))
    }
}

/// Runs one of the file kernels.
pub(super) fn run_file_kernel(kernel: &Kernel, args: &[&ChunkValue]) -> Result<ChunkValue, String> {
    match kernel {
        Kernel::Load {
            spec,
            offset,
            shape,
        } => match &spec.mapped {
            Some(mapped) => mapped.read_region(offset, shape).map(ChunkValue::Array),
            None => read_region(&spec.path, &spec.header, offset, shape)
                .map(ChunkValue::Array)
                .map_err(|e| naming(&spec.path, "cannot read", e)),
        },
        Kernel::SaveInit(file) => {
            file.create()?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveRegion { file, offset } => {
            let data = args
                .first()
                .ok_or_else(|| "internal error: save.region without data".to_string())?
                .array()?;
            file.write_region(offset, data)?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveCommit(file) => {
            std::fs::rename(&file.temporary, &file.path)
                .map_err(|e| format!("cannot save '{}': {e}", file.path.display()))?;
            Ok(ChunkValue::Done)
        }
        other => Err(format!(
            "internal error: {} is not a file kernel",
            other.name()
        )),
    }
}

/// An I/O error's message, naming the user's file (not the temporary one).
fn naming(path: &Path, doing: &str, error: NpyError) -> String {
    let shown = path.display().to_string();
    let message = error.to_string();
    if message.contains(&shown) {
        message
    } else {
        format!("{doing} '{shown}': {message}")
    }
}

/// A save's I/O error, speaking of the user's file rather than the temporary one.
fn saving(file: &SaveFile, error: NpyError) -> String {
    let temporary = file.temporary.display().to_string();
    let message = error
        .to_string()
        .replace(&temporary, &file.path.display().to_string());
    naming(&file.path, "cannot save", NpyError::Io(message))
}
