//! HDF5 files (`fromhdf5`/`tohdf5`), through the `hdf5-metno` crate over the system
//! library (libhdf5). Built only with the runtime's `hdf5` cargo feature, since the
//! crate needs libhdf5-dev to build; without it [`SUPPORTED`] is false and the
//! lowering says so. What a save asks for ([`Hdf5Save`]) is plain data either way.
//!
//! A dataset is `file` + its path inside the file (`group/dataset`).
//! - [`Hdf5Store`] is a dataset opened at compile time: shape, dtype, and its chunk
//!   shape when it is chunked ([`ChunkGrid::Regular`]; a contiguous or compact
//!   dataset is [`ChunkGrid::Any`]).
//! - `read::Hdf5Reader` opens the file once per run and reads one hyperslab per
//!   chunk.
//! - `write::Hdf5Writer` is a save: a new file is written under a hidden temporary
//!   name beside it and renamed into place on commit; into an existing file, the
//!   dataset is written under a hidden temporary name at the file's root and moved
//!   to its name (replacing a dataset there) only on commit, so a failed run leaves
//!   the file's datasets as they were.
//!
//! The HDF5 library is not thread-safe as Debian builds it: every call of
//! `hdf5-metno` takes the crate's one process-wide (reentrant) lock, so calls from
//! several workers run one at a time.

#[cfg(feature = "hdf5")]
mod read;
#[cfg(feature = "hdf5")]
mod write;

#[cfg(feature = "hdf5")]
pub use write::Hdf5Writer;

use super::KeySink;
#[cfg(feature = "hdf5")]
use super::{ChunkGrid, SharedReaders, Store, StoreError, StoreMetadata, StoreReader};
#[cfg(feature = "hdf5")]
use crate::dtype::DType;
use std::path::{Path, PathBuf};

/// Whether this marsc was built with HDF5 support (the `hdf5` cargo feature).
pub const SUPPORTED: bool = cfg!(feature = "hdf5");

/// What the lowering says when [`SUPPORTED`] is false.
pub const UNSUPPORTED: &str = "not supported yet: this marsc was built without HDF5 support (rebuild with `--features hdf5`, which needs libhdf5-dev)";

/// What a `tohdf5` asks for: plain data, carried by the save's IR.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hdf5Save {
    /// The dataset's path inside the file, `group/dataset` (no leading `/`).
    pub dataset: String,
    /// The chunk shape of a chunked dataset; `None` is a contiguous one.
    pub chunks: Option<Vec<usize>>,
    /// gzip (deflate) at this level, 0-9.
    pub gzip: Option<u8>,
}

impl Hdf5Save {
    /// What the dumps show after the save's path.
    pub fn dump_parameters(&self) -> Vec<String> {
        let mut parameters = vec![
            "format=hdf5".to_string(),
            format!("dataset={:?}", self.dataset),
        ];
        match &self.chunks {
            Some(chunks) => parameters.push(format!("chunks={}", tuple_text(chunks))),
            None => parameters.push("contiguous".into()),
        }
        if let Some(level) = self.gzip {
            parameters.push(format!("compression='gzip', compression_opts={level}"));
        }
        parameters
    }

    /// Writes what identifies the save's options into a chunk key.
    pub fn write_key(&self, key: &mut dyn KeySink) {
        key.path(Path::new(&self.dataset));
        for &size in self.chunks.iter().flatten() {
            key.u64(size as u64);
        }
        key.tag(0xff);
        key.tag(self.gzip.map_or(0xff, |level| level));
    }
}

/// `(a, b)` as Python prints a tuple.
fn tuple_text(values: &[usize]) -> String {
    super::zarr::tuple_text(values)
}

/// A dataset's path inside its file: `group/dataset` without empty parts.
pub fn dataset_path(group: Option<&str>, dataset: &str) -> String {
    group
        .into_iter()
        .chain([dataset])
        .flat_map(|part| part.split('/'))
        .filter(|name| !name.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// An HDF5 dataset whose metadata was read at compile time.
#[cfg(feature = "hdf5")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hdf5Store {
    file: PathBuf,
    dataset: String,
    metadata: StoreMetadata,
    /// The dataset's chunk shape, if it is chunked.
    chunks: Option<Vec<usize>>,
}

#[cfg(feature = "hdf5")]
impl Hdf5Store {
    /// Opens the dataset `dataset` (a path inside the file) of the file `file`.
    pub fn open(file: &Path, dataset: &str) -> Result<Hdf5Store, StoreError> {
        let opened = open_dataset(file, dataset)?;
        let dtype = marsc_dtype(&opened, file, dataset)?;
        let shape = opened.shape();
        let chunks = opened.chunk().filter(|c| c.len() == shape.len());
        Ok(Hdf5Store {
            file: file.to_path_buf(),
            dataset: dataset.to_string(),
            metadata: StoreMetadata {
                dtype,
                shape,
                c_contiguous: true,
                chunk_grid: match &chunks {
                    Some(chunks) => ChunkGrid::Regular(chunks.clone()),
                    None => ChunkGrid::Any,
                },
            },
            chunks,
        })
    }
}

#[cfg(feature = "hdf5")]
impl Store for Hdf5Store {
    fn path(&self) -> &Path {
        &self.file
    }

    fn metadata(&self) -> &StoreMetadata {
        &self.metadata
    }

    fn dump_parameters(&self) -> Vec<String> {
        let mut parameters = vec![
            format!("{:?}", self.file.display().to_string()),
            format!("dataset={:?}", self.dataset),
        ];
        if let Some(chunks) = &self.chunks {
            parameters.push(format!("store_chunks={}", tuple_text(chunks)));
        }
        parameters
    }

    fn write_key(&self, key: &mut dyn KeySink) {
        key.path(&self.file);
        key.tag(b'h');
        key.path(Path::new(&self.dataset));
    }

    fn reads_cannot_fail(&self) -> bool {
        // Chunks are read (and inflated) during the run.
        false
    }

    fn reader(&self, label: u32, _shared: &mut SharedReaders) -> std::sync::Arc<dyn StoreReader> {
        std::sync::Arc::new(read::Hdf5Reader::new(
            &self.file,
            &self.dataset,
            self.metadata.dtype,
            &self.metadata.shape,
            label,
        ))
    }

    fn same_as(&self, other: &dyn Store) -> bool {
        (other as &dyn std::any::Any).downcast_ref::<Hdf5Store>() == Some(self)
    }
}

/// Opens `dataset` of `file` read-only.
#[cfg(feature = "hdf5")]
fn open_dataset(file: &Path, dataset: &str) -> Result<hdf5::Dataset, StoreError> {
    let shown = file.display();
    match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => return Err(StoreError::Data(format!("'{shown}' is not a file"))),
        Err(error) => return Err(StoreError::Io(format!("cannot open '{shown}': {error}"))),
    }
    if !has_signature(file) {
        return Err(StoreError::Data(format!("'{shown}' is not an HDF5 file")));
    }
    let opened = open_file(file, hdf5::OpenMode::Read)
        .map_err(|e| StoreError::Io(format!("cannot open '{shown}': {e}")))?;
    if !link_exists(&opened, dataset) {
        return Err(StoreError::Data(format!(
            "'{shown}' has no dataset '{dataset}'"
        )));
    }
    opened.dataset(dataset).map_err(|_| {
        StoreError::Data(format!(
            "'{dataset}' in '{shown}' is not a dataset (a group? name the dataset inside it)"
        ))
    })
}

/// Opens `file` without HDF5's file locks. libhdf5 opens files without
/// `O_CLOEXEC`, so a child process forked while a file is open (a test's Python, a
/// server's helper) keeps its `flock` after marsc closes it, and the next open of
/// the file fails ("unable to lock file"). marsc's saves do not need the locks: a
/// new file is written under a temporary name, a dataset under a hidden one.
#[cfg(feature = "hdf5")]
pub(crate) fn open_file(file: &Path, mode: hdf5::OpenMode) -> hdf5::Result<hdf5::File> {
    let mut builder = hdf5::File::with_options();
    builder.with_fapl(|fapl| fapl.file_locking(false));
    builder.open_as(file, mode)
}

/// Whether every link on the way to `path` exists in `file`.
#[cfg(feature = "hdf5")]
fn link_exists(file: &hdf5::File, path: &str) -> bool {
    let mut prefix = String::new();
    for name in path.split('/') {
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(name);
        if !file.link_exists(&prefix) {
            return false;
        }
    }
    true
}

/// marsc's dtype of a dataset's datatype.
#[cfg(feature = "hdf5")]
fn marsc_dtype(dataset: &hdf5::Dataset, file: &Path, name: &str) -> Result<DType, StoreError> {
    use hdf5::types::{FloatSize, IntSize, TypeDescriptor as T};
    let descriptor = dataset
        .dtype()
        .and_then(|t| t.to_descriptor())
        .map_err(|e| {
            StoreError::Data(format!(
                "cannot read the datatype of '{name}' in '{}': {e}",
                file.display()
            ))
        })?;
    Ok(match descriptor {
        T::Boolean => DType::Bool,
        T::Integer(IntSize::U1) => DType::Int8,
        T::Integer(IntSize::U2) => DType::Int16,
        T::Integer(IntSize::U4) => DType::Int32,
        T::Integer(IntSize::U8) => DType::Int64,
        T::Unsigned(IntSize::U1) => DType::UInt8,
        T::Unsigned(IntSize::U2) => DType::UInt16,
        T::Unsigned(IntSize::U4) => DType::UInt32,
        T::Unsigned(IntSize::U8) => DType::UInt64,
        T::Float(FloatSize::U4) => DType::Float32,
        T::Float(FloatSize::U8) => DType::Float64,
        other => {
            return Err(StoreError::NotSupported(format!(
                "not supported yet: the HDF5 dataset '{name}' in '{}' has datatype {other}; marsc reads bool, the signed and unsigned integers of 8 to 64 bits, float32 and float64 from HDF5 (not float16 yet)",
                file.display()
            )))
        }
    })
}

/// The HDF5 datatype descriptor of `dtype`, as h5py writes NumPy's; `None` for
/// float16, which the HDF5 library binding marsc uses cannot describe.
#[cfg(feature = "hdf5")]
fn descriptor(dtype: DType) -> Option<hdf5::types::TypeDescriptor> {
    use hdf5::types::{FloatSize, IntSize, TypeDescriptor as T};
    Some(match dtype {
        DType::Bool => T::Boolean,
        DType::Int8 => T::Integer(IntSize::U1),
        DType::Int16 => T::Integer(IntSize::U2),
        DType::Int32 => T::Integer(IntSize::U4),
        DType::Int64 => T::Integer(IntSize::U8),
        DType::UInt8 => T::Unsigned(IntSize::U1),
        DType::UInt16 => T::Unsigned(IntSize::U2),
        DType::UInt32 => T::Unsigned(IntSize::U4),
        DType::UInt64 => T::Unsigned(IntSize::U8),
        DType::Float16 | DType::Complex64 | DType::Complex128 => return None,
        DType::Float32 => T::Float(FloatSize::U4),
        DType::Float64 => T::Float(FloatSize::U8),
    })
}

/// Why a float16 tensor cannot be written to HDF5 yet.
pub const FLOAT16_NOT_SUPPORTED: &str =
    "not supported yet: float16 HDF5 datasets (marsc's HDF5 binding cannot describe float16)";

pub const COMPLEX_NOT_SUPPORTED: &str =
    "not supported yet: complex HDF5 datasets (marsc's HDF5 binding has no compound types)";

/// Opens `dataset` of `file` at compile time (`fromhdf5`).
#[cfg(feature = "hdf5")]
pub fn open(file: &Path, dataset: &str) -> Result<super::StoreRef, StoreError> {
    Ok(super::StoreRef::new(std::sync::Arc::new(Hdf5Store::open(
        file, dataset,
    )?)))
}

/// Without HDF5 support nothing opens.
#[cfg(not(feature = "hdf5"))]
pub fn open(_file: &Path, _dataset: &str) -> Result<super::StoreRef, super::StoreError> {
    Err(super::StoreError::NotSupported(UNSUPPORTED.into()))
}

/// Whether `file` is an HDF5 file (the lowering checks `tohdf5` targets with it).
pub fn has_signature(file: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    const SIGNATURE: &[u8; 8] = b"\x89HDF\r\n\x1a\n";
    let Ok(mut opened) = std::fs::File::open(file) else {
        return false;
    };
    let len = opened.metadata().map_or(0, |m| m.len());
    // The superblock is at 0 or after a user block of 512, 1024, 2048, ... bytes.
    let mut offset = 0u64;
    while offset + 8 <= len {
        let mut bytes = [0u8; 8];
        if opened.seek(SeekFrom::Start(offset)).is_err() || opened.read_exact(&mut bytes).is_err() {
            return false;
        }
        if &bytes == SIGNATURE {
            return true;
        }
        offset = if offset == 0 { 512 } else { offset * 2 };
    }
    false
}

/// The writer of a `tohdf5` of an array of `dtype` and `shape` to `file`.
#[cfg(feature = "hdf5")]
pub fn writer(
    file: &Path,
    save: &Hdf5Save,
    dtype: crate::dtype::DType,
    shape: &[usize],
) -> Box<dyn super::StoreWriter> {
    Box::new(Hdf5Writer::new(file, save, dtype, shape))
}

/// Without HDF5 support the lowering never makes a `tohdf5`; a writer that fails
/// says why if one is made all the same.
#[cfg(not(feature = "hdf5"))]
pub fn writer(
    file: &Path,
    _save: &Hdf5Save,
    _dtype: crate::dtype::DType,
    _shape: &[usize],
) -> Box<dyn super::StoreWriter> {
    Box::new(Unsupported(file.to_path_buf()))
}

#[cfg(not(feature = "hdf5"))]
#[derive(Debug)]
struct Unsupported(PathBuf);

#[cfg(not(feature = "hdf5"))]
impl super::StoreWriter for Unsupported {
    fn path(&self) -> &Path {
        &self.0
    }
    fn create(&self) -> Result<(), super::StoreError> {
        Err(super::StoreError::NotSupported(UNSUPPORTED.into()))
    }
    fn write_region(
        &self,
        _: &[usize],
        _: &crate::array::ArrayData,
    ) -> Result<(), super::StoreError> {
        Err(super::StoreError::NotSupported(UNSUPPORTED.into()))
    }
    fn commit(&self) -> Result<(), super::StoreError> {
        Err(super::StoreError::NotSupported(UNSUPPORTED.into()))
    }
    fn abort(&self) {}
    fn temporary(&self) -> Option<PathBuf> {
        None
    }
    fn error(&self, message: String) -> String {
        message
    }
    fn same_as(&self, other: &dyn super::StoreWriter) -> bool {
        (other as &dyn std::any::Any)
            .downcast_ref::<Unsupported>()
            .is_some_and(|o| o.0 == self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dataset_paths_drop_empty_parts() {
        assert_eq!(dataset_path(None, "x"), "x");
        assert_eq!(dataset_path(Some("/g/h/"), "/x"), "g/h/x");
        assert_eq!(dataset_path(Some(""), "a/b"), "a/b");
    }
}
