//! Storage formats: how an array kept outside the process (a `.npy` file today; Zarr
//! or HDF5 later) is opened, read a region at a time, and written a region at a time.
//! The IR names a store, never a format's own facts: a format is an implementation
//! of the traits here, not new IR.
//!
//! A format implements three traits, one per stage of a store's life:
//! - [`Store`], opened at compile time by [`open`]: the array's metadata (shape,
//!   dtype, the store's native chunk grid), what the dumps show and the chunk keys
//!   hash, and a [`StoreReader`] per run. The compiler's creation op `load`
//!   (`Creation::Load`, in both IRs) holds a [`StoreRef`] to one.
//! - [`StoreReader`], the run-time side of a load: opened before the run (so a
//!   missing or changed store is an error against its `load`, and a later save of
//!   the same path cannot change what it reads), then read one N-d box per chunk,
//!   from any worker.
//! - [`StoreWriter`], a save: create → write regions (disjoint boxes, from several
//!   workers at once) → commit, or abort. Nothing appears under the user's name
//!   before the commit, and an abort removes whatever the create made.
//!
//! Two formats implement them:
//! - `.npy` ([`npy`]): a single-file array with any chunk grid, read streamed
//!   (positioned reads of an open descriptor) or mapped (`mmap_mode='r'`), and
//!   written in place into a mapped temporary file.
//! - Zarr v2 and v3 ([`zarr`]): a directory of encoded chunks on a regular grid,
//!   read and written through the `zarrs` crate (`fromzarr`/`tozarr`).
//! - `.npz` ([`npz`]): a zip archive of `.npy` members (`load`, `savez`); raw
//!   binary files (`fromfile`, `tofile`) are `.npy` data without a header.
//! - HDF5 ([`hdf5`]): a dataset in an HDF5 file, chunked or contiguous, through
//!   `hdf5-metno` over libhdf5 (`fromhdf5`/`tohdf5`; the `hdf5` cargo feature).

pub mod hdf5;
pub mod npy;
pub mod npz;
mod run_slot;
pub mod zarr;

use crate::array::ArrayData;
use crate::dtype::DType;
use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use npy::WritableNpy;
pub use run_slot::RunSlot;

/// What the compiler learns of a store when it opens it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreMetadata {
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// Whether NumPy's array for the store is C-contiguous (`np.load` of a
    /// Fortran-order `.npy` file is not).
    pub c_contiguous: bool,
    /// The store's own chunking, along which reads are cheapest.
    pub chunk_grid: ChunkGrid,
}

/// How a store is chunked on its medium.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkGrid {
    /// Any region reads as cheaply as any other (a `.npy` file: one array).
    Any,
    /// Chunks of this shape from the origin, the last along each axis cut short.
    Regular(Vec<usize>),
}

/// How a script asks for a store to be opened (`load`'s keyword arguments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// `mmap_mode='r'`: read through a read-only mapping, in place where possible.
    pub mmap: bool,
}

/// Why a store could not be opened, read or written, by kind; the text (naming the
/// user's path) is what the user reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The system refused or failed an operation on the store's files (open, read,
    /// map, create, write, rename).
    Io(String),
    /// The store does not hold what was asked or expected: a malformed header, a
    /// file changed since the script was compiled, truncated data, a value the
    /// format cannot hold.
    Data(String),
    /// What the store holds or the save asks is something marsc does not support yet.
    NotSupported(String),
    /// A caller broke the store's contract (a region written before the create):
    /// a marsc bug.
    Internal(String),
}

impl StoreError {
    /// The message, whatever the kind.
    pub fn message(&self) -> &str {
        match self {
            StoreError::Io(message)
            | StoreError::Data(message)
            | StoreError::NotSupported(message)
            | StoreError::Internal(message) => message,
        }
    }

    /// The same kind of error with its message changed by `change` (a writer naming
    /// the user's file).
    pub fn map_message(self, change: impl FnOnce(String) -> String) -> StoreError {
        match self {
            StoreError::Io(message) => StoreError::Io(change(message)),
            StoreError::Data(message) => StoreError::Data(change(message)),
            StoreError::NotSupported(message) => StoreError::NotSupported(change(message)),
            StoreError::Internal(message) => StoreError::Internal(change(message)),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for StoreError {}

impl From<npy::header::NpyError> for StoreError {
    fn from(error: npy::header::NpyError) -> StoreError {
        match error {
            npy::header::NpyError::Io(message) => StoreError::Io(message),
            npy::header::NpyError::Malformed(message) => StoreError::Data(message),
        }
    }
}

/// Opens the `.npy` file at `path` as `options` ask: reads its metadata now, at
/// compile time (`load`).
pub fn open(path: &Path, options: &OpenOptions) -> Result<StoreRef, StoreError> {
    let store = npy::NpyStore::open(path, options)?;
    Ok(StoreRef(Arc::new(store)))
}

/// Opens the Zarr array in the directory `path` (`fromzarr`): reads its metadata
/// now, at compile time.
pub fn open_zarr(path: &Path) -> Result<StoreRef, StoreError> {
    Ok(StoreRef(Arc::new(zarr::ZarrStore::open(path)?)))
}

/// Opens the raw file at `path` as elements of `dtype` (`fromfile`): `count` of
/// them (all there are for `None`, as many as there are when fewer, as NumPy reads)
/// from byte `offset`. The length is read now, at compile time.
pub fn open_raw(
    path: &Path,
    dtype: DType,
    count: Option<usize>,
    offset: u64,
) -> Result<StoreRef, StoreError> {
    let metadata = std::fs::metadata(path).map_err(|e| StoreError::Io(e.to_string()))?;
    if metadata.is_dir() {
        return Err(StoreError::Io("Is a directory (os error 21)".into()));
    }
    let Some(bytes) = metadata.len().checked_sub(offset) else {
        // NumPy's own message for an offset past the end.
        return Err(StoreError::Data(
            "ValueError: negative dimensions are not allowed".into(),
        ));
    };
    let available = (bytes / dtype.itemsize() as u64) as usize;
    let count = count.map_or(available, |count| count.min(available));
    let store = npy::NpyStore::raw(path, dtype, count, offset);
    Ok(StoreRef(Arc::new(store)))
}

/// Opens the dataset `dataset` (its path inside the file) of the HDF5 file `file`
/// (`fromhdf5`): reads its metadata now, at compile time.
pub fn open_hdf5(file: &Path, dataset: &str) -> Result<StoreRef, StoreError> {
    self::hdf5::open(file, dataset)
}

/// The format a save writes, with its options: plain data the IR carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum SaveFormat {
    /// A `.npy` file (`save`).
    #[default]
    Npy,
    /// A Zarr array (`tozarr`).
    Zarr(zarr::ZarrSave),
    /// A dataset in an HDF5 file (`tohdf5`).
    Hdf5(self::hdf5::Hdf5Save),
    /// A raw file: the elements in C order, no header (`tofile`).
    Raw,
    /// One member of an `.npz` archive (`savez`).
    Npz(npz::NpzSave),
}

impl SaveFormat {
    /// What the dumps show after the save's path and shape (nothing for `.npy`).
    pub fn dump_parameters(&self) -> Vec<String> {
        match self {
            SaveFormat::Npy => Vec::new(),
            SaveFormat::Zarr(save) => save.dump_parameters(),
            SaveFormat::Hdf5(save) => save.dump_parameters(),
            SaveFormat::Raw => vec!["format=raw".into()],
            SaveFormat::Npz(save) => save.dump_parameters(),
        }
    }

    /// Writes what identifies the format and its options into a chunk key.
    pub fn write_key(&self, key: &mut dyn KeySink) {
        match self {
            SaveFormat::Npy => {}
            SaveFormat::Zarr(save) => {
                key.tag(b'z');
                save.write_key(key);
            }
            SaveFormat::Hdf5(save) => {
                key.tag(b'h');
                save.write_key(key);
            }
            SaveFormat::Raw => key.tag(b'r'),
            SaveFormat::Npz(save) => {
                key.tag(b'n');
                save.write_key(key);
            }
        }
    }
}

/// The writer of a save of an array of `dtype` and `shape` to `path` in `format`.
pub fn writer(
    path: &Path,
    format: &SaveFormat,
    dtype: DType,
    shape: &[usize],
) -> Box<dyn StoreWriter> {
    match format {
        SaveFormat::Npy => Box::new(npy::NpyWriter::new(path, dtype, shape)),
        SaveFormat::Zarr(save) => Box::new(zarr::ZarrWriter::new(path, save, dtype, shape)),
        SaveFormat::Hdf5(save) => self::hdf5::writer(path, save, dtype, shape),
        SaveFormat::Raw => Box::new(npy::NpyWriter::raw(path, dtype, shape)),
        SaveFormat::Npz(save) => Box::new(npz::NpzWriter::new(path, save, dtype, shape)),
    }
}

/// Where a store writes what identifies its data in a chunk key (the compiler's
/// key hasher); the same store opened the same way must write the same values.
pub trait KeySink {
    fn path(&mut self, path: &Path);
    fn u64(&mut self, value: u64);
    fn tag(&mut self, tag: u8);
}

/// A store opened at compile time: immutable facts read when it was opened. Run
/// state lives in its readers.
pub trait Store: Send + Sync + fmt::Debug + Any {
    /// The path the script named (resolved against the script's directory).
    fn path(&self) -> &Path;

    fn metadata(&self) -> &StoreMetadata;

    /// The parameters the dumps show after the op's name (`--emit tileable`,
    /// `--emit chunk`), the path first.
    fn dump_parameters(&self) -> Vec<String>;

    /// Writes what identifies the data read into a chunk key.
    fn write_key(&self, key: &mut dyn KeySink);

    /// Whether reading a chunk cannot fail once the reader is open (before the
    /// run), so fusion may join reads into their readers' subtask.
    fn reads_cannot_fail(&self) -> bool;

    /// The reader of one load for one run. `shared` holds the readers every load of
    /// a file shares during the run (one mapping per file); `label` is the caller's
    /// tag for the load, returned by [`StoreReader::label`].
    fn reader(&self, label: u32, shared: &mut SharedReaders) -> Arc<dyn StoreReader>;

    /// Whether `other` is this store opened the same way (the IR's equality).
    fn same_as(&self, other: &dyn Store) -> bool;
}

/// The IR's handle on an opened store.
#[derive(Clone)]
pub struct StoreRef(Arc<dyn Store>);

impl StoreRef {
    pub fn new(store: Arc<dyn Store>) -> StoreRef {
        StoreRef(store)
    }
}

impl std::ops::Deref for StoreRef {
    type Target = dyn Store;

    fn deref(&self) -> &dyn Store {
        &*self.0
    }
}

impl PartialEq for StoreRef {
    fn eq(&self, other: &StoreRef) -> bool {
        self.0.same_as(&*other.0)
    }
}

impl fmt::Debug for StoreRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

/// The readers shared by every load of one store during one run, keyed by the
/// format's name and the path.
#[derive(Default)]
pub struct SharedReaders(HashMap<(&'static str, PathBuf), Arc<dyn StoreReader>>);

impl SharedReaders {
    /// The reader of `format` for `path`, made by `make` on first use.
    pub fn get_or_insert_with(
        &mut self,
        format: &'static str,
        path: &Path,
        make: impl FnOnce() -> Arc<dyn StoreReader>,
    ) -> Arc<dyn StoreReader> {
        self.0
            .entry((format, path.to_path_buf()))
            .or_insert_with(make)
            .clone()
    }
}

/// The run-time side of a load, shared by its chunks' kernels.
pub trait StoreReader: Send + Sync + fmt::Debug + Any {
    /// Opens the store, on the first call only, checking that it still holds what
    /// it held at compile time. Called for every reader before the run starts;
    /// errors name the file.
    fn open(&self) -> Result<(), StoreError>;

    /// The box at `offset` of extent `shape`, in C order (opening the store first
    /// if it is not open).
    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError>;

    /// The caller's tag for the load (its errors point at it).
    fn label(&self) -> u32;

    /// Whether [`StoreReader::in_place_bytes`] serves the data, decided without
    /// opening the store: the JIT then reads chunks in place.
    fn reads_in_place(&self) -> bool {
        false
    }

    /// The whole array's element bytes, little-endian and in C order, held in place
    /// (a mapping); opens the store on the first call.
    fn in_place_bytes(&self) -> Result<&[u8], StoreError> {
        Err(StoreError::Internal(
            "internal error: this store is not read in place".into(),
        ))
    }

    /// Whether `other` reads the same store the same way (the plan's equality).
    fn same_as(&self, other: &dyn StoreReader) -> bool;
}

/// A reader as a kernel holds it: compared by what it reads, not by its run state.
#[derive(Clone)]
pub struct ReaderRef(pub Arc<dyn StoreReader>);

impl std::ops::Deref for ReaderRef {
    type Target = dyn StoreReader;

    fn deref(&self) -> &dyn StoreReader {
        &*self.0
    }
}

impl PartialEq for ReaderRef {
    fn eq(&self, other: &ReaderRef) -> bool {
        self.0.same_as(&*other.0)
    }
}

impl fmt::Debug for ReaderRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl ReaderRef {
    /// The reader's identity for this run (one open per reader).
    pub fn as_ptr(&self) -> *const () {
        Arc::as_ptr(&self.0).cast::<()>()
    }
}

/// A save's writer: create → write regions → commit, or abort. Regions are
/// disjoint boxes (a tiler invariant) written from any worker, several at once;
/// each runs once at a time. Errors name the user's file, never a temporary one.
pub trait StoreWriter: Send + Sync + fmt::Debug + Any {
    /// The path the script named.
    fn path(&self) -> &Path;

    /// Checks that the store can be written where the user asked, then creates its
    /// hidden temporary form. A create that runs again (its result was lost with a
    /// worker) keeps what the first made.
    fn create(&self) -> Result<(), StoreError>;

    /// Writes `data` as the box at `offset`.
    fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError>;

    /// Moves the complete store under the user's name.
    fn commit(&self) -> Result<(), StoreError>;

    /// Removes what `create` made, if it was not committed (a failed or stopped run).
    fn abort(&self);

    /// The temporary form, once created and until the commit or abort.
    fn temporary(&self) -> Option<PathBuf>;

    /// The array's element bytes, writable in place in C order, once created, for
    /// formats that have them: the JIT computes saved chunks straight into them.
    fn mapping(&self) -> Option<Arc<WritableNpy>> {
        None
    }

    /// An error about this save, naming the user's file.
    fn error(&self, message: String) -> String;

    /// Whether `other` writes the same store the same way (the plan's equality).
    fn same_as(&self, other: &dyn StoreWriter) -> bool;
}
