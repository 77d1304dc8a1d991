//! Zarr stores (v2 and v3), through the `zarrs` crate: a directory holding one
//! array's metadata (`zarr.json`, or `.zarray` for v2) and its chunks, each encoded
//! by the array's codecs (blosc, zstd, gzip, zlib, sharding, ...). A chunk missing
//! from the directory holds the array's fill value.
//!
//! An array inside a hierarchy is the directory `path/group/dataset`: a Zarr
//! array's metadata and chunk keys are relative to its own directory, so a group is
//! only a path to it here.
//!
//! - [`ZarrStore`] is an array opened at compile time: shape, dtype and the regular
//!   chunk grid (the shards of a sharded array) go into [`StoreMetadata`].
//! - [`read::ZarrReader`] reads one N-d box per chunk; a box that cuts store chunks
//!   is decoded from the chunks it touches.
//! - [`write::ZarrWriter`] is a save (`tozarr`): the lowering rechunks the tensor to
//!   whole store chunks (shards), so every region writes whole chunks and regions
//!   never share one; a new array is written into a hidden temporary directory and
//!   renamed into place on commit.

pub mod metadata;
pub mod read;
pub mod write;

use super::{ChunkGrid, KeySink, SharedReaders, Store, StoreError, StoreMetadata, StoreReader};
use crate::dtype::DType;
use read::ZarrReader;
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use zarrs::array::data_type::{
    BoolDataType, Float16DataType, Float32DataType, Float64DataType, Int16DataType, Int32DataType,
    Int64DataType, Int8DataType, UInt16DataType, UInt32DataType, UInt64DataType, UInt8DataType,
};
use zarrs::array::{Array, ArrayMetadata, CodecOptions, DataType};
use zarrs::filesystem::FilesystemStore;

pub use write::{BloscCname, Compressor, FillValue, WriteMode, ZarrSave, ZarrWriter};

/// An array opened by `zarrs` on its own directory.
pub type OpenedArray = Array<FilesystemStore>;

/// A Zarr array whose metadata was read at compile time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZarrStore {
    /// The array's directory (`path/group/dataset`).
    path: PathBuf,
    zarr_format: u8,
    metadata: StoreMetadata,
    /// The chunk grid's shape, the shards of a sharded array.
    chunk_shape: Vec<usize>,
}

impl ZarrStore {
    /// Opens the array in the directory `path`.
    pub fn open(path: &Path) -> Result<ZarrStore, StoreError> {
        let array = open_array(path)?;
        let dtype = marsc_dtype(array.data_type())
            .ok_or_else(|| StoreError::NotSupported(unsupported_dtype(path, array.data_type())))?;
        let shape = to_usizes(array.shape());
        let chunk_shape = regular_chunk_shape(&array, path)?;
        let zarr_format = match array.metadata() {
            ArrayMetadata::V2(_) => 2,
            ArrayMetadata::V3(_) => 3,
        };
        Ok(ZarrStore {
            path: path.to_path_buf(),
            zarr_format,
            metadata: StoreMetadata {
                dtype,
                shape,
                c_contiguous: true,
                chunk_grid: ChunkGrid::Regular(chunk_shape.clone()),
            },
            chunk_shape,
        })
    }

    pub fn zarr_format(&self) -> u8 {
        self.zarr_format
    }

    /// The store's chunk shape (the shard shape of a sharded array).
    pub fn chunk_shape(&self) -> &[usize] {
        &self.chunk_shape
    }
}

impl Store for ZarrStore {
    fn path(&self) -> &Path {
        &self.path
    }

    fn metadata(&self) -> &StoreMetadata {
        &self.metadata
    }

    fn dump_parameters(&self) -> Vec<String> {
        vec![
            format!("{:?}", self.path.display().to_string()),
            format!("zarr_format={}", self.zarr_format),
            format!("store_chunks={}", tuple_text(&self.chunk_shape)),
        ]
    }

    fn write_key(&self, key: &mut dyn KeySink) {
        key.path(&self.path);
        key.tag(b'z');
        key.tag(self.zarr_format);
        for &size in &self.chunk_shape {
            key.u64(size as u64);
        }
    }

    fn reads_cannot_fail(&self) -> bool {
        // Chunks are read and decoded during the run: a corrupt chunk is an error.
        false
    }

    fn reader(&self, label: u32, _shared: &mut SharedReaders) -> Arc<dyn StoreReader> {
        Arc::new(ZarrReader::new(
            &self.path,
            self.metadata.dtype,
            &self.metadata.shape,
            label,
        ))
    }

    fn same_as(&self, other: &dyn Store) -> bool {
        (other as &dyn Any).downcast_ref::<ZarrStore>() == Some(self)
    }
}

/// Whether the directory `path` holds a Zarr array (v3 `zarr.json` of an array, or
/// v2 `.zarray`).
pub fn is_array(path: &Path) -> bool {
    node_kind(path) == Some(NodeKind::Array)
}

/// What a Zarr directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Array,
    Group,
}

/// The Zarr node in the directory `path`, if it holds one.
pub fn node_kind(path: &Path) -> Option<NodeKind> {
    if path.join(".zarray").is_file() {
        return Some(NodeKind::Array);
    }
    if path.join(".zgroup").is_file() {
        return Some(NodeKind::Group);
    }
    let text = std::fs::read(path.join("zarr.json")).ok()?;
    let json: serde_json::Value = serde_json::from_slice(&text).ok()?;
    match json.get("node_type").and_then(|t| t.as_str()) {
        Some("array") => Some(NodeKind::Array),
        Some("group") => Some(NodeKind::Group),
        _ => None,
    }
}

/// The Zarr format of the group or array in the directory `path`, if any.
pub fn node_format(path: &Path) -> Option<u8> {
    if path.join(".zarray").is_file() || path.join(".zgroup").is_file() {
        Some(2)
    } else if path.join("zarr.json").is_file() {
        Some(3)
    } else {
        None
    }
}

/// Opens the array in the directory `path` with `zarrs`.
pub fn open_array(path: &Path) -> Result<OpenedArray, StoreError> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(StoreError::Data(format!(
                "'{shown}' is not a Zarr store (not a directory)"
            )))
        }
        Err(error) => return Err(StoreError::Io(format!("cannot open '{shown}': {error}"))),
    }
    if node_kind(path) == Some(NodeKind::Group) {
        return Err(StoreError::Data(format!(
            "'{shown}' is a Zarr group, not an array; name the array with `dataset=` (and `group=`)"
        )));
    }
    if node_kind(path).is_none() {
        return Err(StoreError::Data(format!(
            "'{shown}' holds no Zarr array (no zarr.json or .zarray)"
        )));
    }
    let store = FilesystemStore::new(path)
        .map_err(|e| StoreError::Io(format!("cannot open '{shown}': {e}")))?;
    Array::open(Arc::new(store), "/")
        .map_err(|e| StoreError::Data(format!("cannot open the Zarr array '{shown}': {e}")))
}

/// marsc's dtype of a Zarr data type, if marsc has it.
pub fn marsc_dtype(data_type: &DataType) -> Option<DType> {
    Some(if data_type.is::<BoolDataType>() {
        DType::Bool
    } else if data_type.is::<Int8DataType>() {
        DType::Int8
    } else if data_type.is::<Int16DataType>() {
        DType::Int16
    } else if data_type.is::<UInt8DataType>() {
        DType::UInt8
    } else if data_type.is::<UInt16DataType>() {
        DType::UInt16
    } else if data_type.is::<UInt32DataType>() {
        DType::UInt32
    } else if data_type.is::<UInt64DataType>() {
        DType::UInt64
    } else if data_type.is::<Int32DataType>() {
        DType::Int32
    } else if data_type.is::<Int64DataType>() {
        DType::Int64
    } else if data_type.is::<Float16DataType>() {
        DType::Float16
    } else if data_type.is::<Float32DataType>() {
        DType::Float32
    } else if data_type.is::<Float64DataType>() {
        DType::Float64
    } else {
        return None;
    })
}

fn unsupported_dtype(path: &Path, data_type: &DataType) -> String {
    format!(
        "not supported yet: the Zarr array '{}' has data type {data_type}; marsc reads bool, the signed and unsigned integers of 8 to 64 bits, float16, float32 and float64 from Zarr",
        path.display()
    )
}

/// The chunk shape of an array's regular chunk grid.
fn regular_chunk_shape(array: &OpenedArray, path: &Path) -> Result<Vec<usize>, StoreError> {
    let grid = array.chunk_grid().metadata();
    let regular = matches!(grid.name(), "regular" | "regular_bounded");
    let json = serde_json::to_value(&grid).unwrap_or_default();
    let shape = json
        .get("configuration")
        .and_then(|c| c.get("chunk_shape"))
        .and_then(|s| s.as_array())
        .map(|sizes| {
            sizes
                .iter()
                .map(|s| s.as_u64())
                .collect::<Option<Vec<u64>>>()
        });
    match (regular, shape) {
        (true, Some(Some(sizes))) if sizes.len() == array.shape().len() => Ok(to_usizes(&sizes)),
        _ => Err(StoreError::NotSupported(format!(
            "not supported yet: the Zarr array '{}' has a `{}` chunk grid; marsc reads regular chunk grids",
            path.display(),
            grid.name()
        ))),
    }
}

/// The options of every encode and decode: one thread, since each worker runs
/// its own chunk (zarrs would otherwise spread one chunk over every core).
pub fn codec_options() -> CodecOptions {
    CodecOptions::default().with_concurrent_target(1)
}

fn to_usizes(values: &[u64]) -> Vec<usize> {
    values.iter().map(|&v| v as usize).collect()
}

/// `(a, b)` as Python prints a tuple.
pub fn tuple_text(values: &[usize]) -> String {
    match values {
        [one] => format!("({one},)"),
        _ => {
            let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            format!("({})", items.join(", "))
        }
    }
}
