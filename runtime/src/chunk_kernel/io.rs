//! The kernels that touch stores: reading a chunk's region of a loaded store, and
//! the three parts of a save (create the store's temporary form, write each chunk's
//! region into it, commit it under the user's name once complete). What a format
//! does at each step is its own ([`crate::storage`]); this is the dispatch.

use super::{ChunkError, ChunkValue, Kernel};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::storage::{self, SaveFormat, StoreError, StoreWriter, WritableNpy};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One `save(path, x)`: where it goes, what it holds, and the format's writer,
/// shared by the save's init, regions and commit.
pub struct SaveFile {
    /// The file the user named.
    pub path: PathBuf,
    pub dtype: DType,
    pub shape: Vec<usize>,
    writer: Box<dyn StoreWriter>,
}

impl SaveFile {
    /// The save of an array of `dtype` and `shape` to `path` (a `.npy` file).
    pub fn new(path: &Path, dtype: DType, shape: &[usize]) -> SaveFile {
        SaveFile::with_format(path, &SaveFormat::Npy, dtype, shape)
    }

    /// The save of an array of `dtype` and `shape` to `path` in `format`.
    pub fn with_format(
        path: &Path,
        format: &SaveFormat,
        dtype: DType,
        shape: &[usize],
    ) -> SaveFile {
        SaveFile {
            path: path.to_path_buf(),
            dtype,
            shape: shape.to_vec(),
            writer: storage::writer(path, format, dtype, shape),
        }
    }

    /// The temporary file, once the init has created it and until the commit.
    pub fn temporary(&self) -> Option<PathBuf> {
        self.writer.temporary()
    }

    /// Removes the temporary file, if there is one (a run that failed or stopped).
    pub fn remove_temporary(&self) {
        self.writer.abort();
    }

    /// Creates the save's temporary file (see [`StoreWriter::create`]).
    pub fn create(&self) -> Result<(), StoreError> {
        self.writer.create()
    }

    /// Writes `data` as the region at `offset`.
    pub fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError> {
        self.writer.write_region(offset, data)
    }

    /// Moves the complete temporary file over the target.
    pub fn commit(&self) -> Result<(), StoreError> {
        self.writer.commit()
    }

    /// The temporary file's element bytes, mapped writable in C order, once the
    /// init has made them (JIT kernels compute saved chunks straight into them).
    pub fn mapping(&self) -> Option<Arc<WritableNpy>> {
        self.writer.mapping()
    }

    /// An error about this save, naming the user's file.
    pub fn error(&self, message: String) -> String {
        self.writer.error(message)
    }
}

impl PartialEq for SaveFile {
    fn eq(&self, other: &SaveFile) -> bool {
        self.path == other.path
            && self.dtype == other.dtype
            && self.shape == other.shape
            && self.writer.same_as(&*other.writer)
    }
}

impl std::fmt::Debug for SaveFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.writer, f)
    }
}

/// Runs one of the file kernels.
pub(super) fn run_file_kernel(
    kernel: &Kernel,
    args: &[&ChunkValue],
) -> Result<ChunkValue, ChunkError> {
    match kernel {
        Kernel::Load {
            spec,
            offset,
            shape,
        } => Ok(ChunkValue::Array(spec.reader.read_region(offset, shape)?)),
        Kernel::SaveInit(file) => {
            file.create()?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveRegion { file, offset } => {
            let data = args
                .first()
                .ok_or("internal error: save.region without data")?
                .array()?;
            file.write_region(offset, data)?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveCommit(file) => {
            file.commit()?;
            Ok(ChunkValue::Done)
        }
        other => Err(ChunkError::Internal(format!(
            "internal error: {} is not a file kernel",
            other.name()
        ))),
    }
}
