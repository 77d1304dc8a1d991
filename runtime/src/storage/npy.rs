//! `.npy` files, the first storage format: one array in one file, a header then the
//! element data in C or Fortran order. Every npy-specific fact (the data offset,
//! the order, the header itself) lives here, behind [`super::Store`],
//! [`super::StoreReader`] and [`super::StoreWriter`].
//!
//! - [`header`] reads and writes headers; [`codec`] reads and writes element data
//!   a region (an N-d box) at a time, with positioned I/O or out of a mapping.
//! - [`NpyStore`] is a file opened at compile time. Its chunk grid is
//!   [`ChunkGrid::Any`]: any box of a file reads as well as any other.
//! - A load reads through [`StreamedNpy`] (the file opened once per run, read with
//!   `pread`) or, with `mmap_mode='r'`, through [`MappedNpy`] (the file mapped
//!   read-only once per run and shared by every load of it; C-order data is read
//!   in place by JIT kernels).
//! - A save writes through [`NpyWriter`]: a hidden temporary file, created
//!   exclusively under a random name beside the end of the path's symlink chain,
//!   mapped writable ([`WritableNpy`]), then renamed over the target on commit.

pub mod codec;
pub mod header;
mod mapped;
mod save;
mod streamed;
mod writable;

pub use mapped::MappedNpy;
#[cfg_attr(not(feature = "hdf5"), allow(unused_imports))]
pub(crate) use save::create_temporary;
pub use save::NpyWriter;
pub use streamed::{OpenedNpy, StreamedNpy};
pub use writable::{MappingSlot, Reserved, WritableNpy};

use super::{
    ChunkGrid, KeySink, OpenOptions, SharedReaders, Store, StoreError, StoreMetadata, StoreReader,
};
use header::{read_header, NpyError, NpyHeader};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The name [`SharedReaders`] keys this format's readers with.
const FORMAT: &str = "npy";

/// A `.npy` file whose header was read at compile time.
#[derive(Clone, Debug, PartialEq)]
pub struct NpyStore {
    path: PathBuf,
    header: NpyHeader,
    /// `mmap_mode='r'`: chunks read the file through a read-only mapping.
    mmap: bool,
    /// A raw file (`fromfile`): no header; `header` is what it would say (the dtype,
    /// the element count and where the elements start).
    raw: bool,
    /// A member of an `.npz` archive (its name): read in place like a raw file,
    /// `header` being the member's with `data_offset` counted in the archive.
    member: Option<String>,
    metadata: StoreMetadata,
}

impl NpyStore {
    /// Reads the header of `path`.
    pub fn open(path: &Path, options: &OpenOptions) -> Result<NpyStore, NpyError> {
        Ok(NpyStore::with_header(
            path,
            read_header(path)?,
            options.mmap,
        ))
    }

    /// The store of a file holding `header` (as if its header had been read).
    pub fn with_header(path: &Path, header: NpyHeader, mmap: bool) -> NpyStore {
        let metadata = StoreMetadata {
            dtype: header.dtype,
            shape: header.shape.clone(),
            c_contiguous: !header.fortran_order,
            chunk_grid: ChunkGrid::Any,
        };
        NpyStore {
            path: path.to_path_buf(),
            header,
            mmap,
            raw: false,
            member: None,
            metadata,
        }
    }

    /// The stored member `name` of the `.npz` archive at `path`, whose `.npy` header
    /// is `header` (`data_offset` counted from the archive's start).
    pub fn member(path: &Path, header: NpyHeader, name: &str) -> NpyStore {
        NpyStore {
            raw: true,
            member: Some(name.to_string()),
            ..NpyStore::with_header(path, header, false)
        }
    }

    /// A raw file of elements of `dtype` (`fromfile`): `count` of them from byte
    /// `offset`, read as `.npy` data without a header.
    pub fn raw(path: &Path, dtype: crate::dtype::DType, count: usize, offset: u64) -> NpyStore {
        let header = NpyHeader {
            dtype,
            shape: vec![count],
            fortran_order: false,
            data_offset: offset,
        };
        NpyStore {
            raw: true,
            ..NpyStore::with_header(path, header, false)
        }
    }

    pub fn header(&self) -> &NpyHeader {
        &self.header
    }

    pub fn mmap(&self) -> bool {
        self.mmap
    }
}

impl Store for NpyStore {
    fn path(&self) -> &Path {
        &self.path
    }

    fn metadata(&self) -> &StoreMetadata {
        &self.metadata
    }

    fn dump_parameters(&self) -> Vec<String> {
        let fortran_order = if self.header.fortran_order {
            "True"
        } else {
            "False"
        };
        let mut parameters = vec![
            format!("{:?}", self.path.display().to_string()),
            format!("offset={}", self.header.data_offset),
            format!("fortran_order={fortran_order}"),
        ];
        if self.mmap {
            parameters.push("mmap_mode='r'".into());
        }
        if let Some(member) = &self.member {
            parameters.push(format!("member={member:?}"));
        } else if self.raw {
            parameters.retain(|p| !p.starts_with("fortran_order"));
            parameters.push("raw".into());
        }
        parameters
    }

    fn write_key(&self, key: &mut dyn KeySink) {
        key.path(&self.path);
        key.u64(self.header.data_offset);
        key.tag(self.header.fortran_order as u8);
        key.tag(self.mmap as u8);
        key.tag(self.raw as u8);
        if let Some(member) = &self.member {
            key.path(Path::new(member));
        }
    }

    fn reads_cannot_fail(&self) -> bool {
        // A mapped file is mapped and checked before the run; reads are copies.
        self.mmap
    }

    fn reader(&self, label: u32, shared: &mut SharedReaders) -> Arc<dyn StoreReader> {
        if self.mmap {
            shared.get_or_insert_with(FORMAT, &self.path, || {
                Arc::new(MappedNpy::new(
                    self.path.clone(),
                    self.header.clone(),
                    label,
                ))
            })
        } else {
            let mut reader = StreamedNpy::new(&self.path, self.header.clone(), label);
            reader.raw = self.raw;
            Arc::new(reader)
        }
    }

    fn same_as(&self, other: &dyn Store) -> bool {
        (other as &dyn Any).downcast_ref::<NpyStore>() == Some(self)
    }
}

/// A reading or writing error of `path`, of its kind (I/O or bad data), naming the
/// user's file as [`naming`] does.
fn named(path: &Path, doing: &str, error: NpyError) -> StoreError {
    match error {
        NpyError::Io(_) => StoreError::Io(naming(path, doing, error)),
        NpyError::Malformed(_) => StoreError::Data(naming(path, doing, error)),
    }
}

/// An I/O error's message, naming the user's file (not a temporary one).
fn naming(path: &Path, doing: &str, error: NpyError) -> String {
    let shown = path.display().to_string();
    let message = error.to_string();
    if message.contains(&shown) {
        message
    } else {
        format!("{doing} '{shown}': {message}")
    }
}
