//! A save to a Zarr array (`tozarr`): create → write regions → commit, or abort.
//!
//! A new array (and the groups above it that do not exist yet) is written into a
//! hidden temporary directory beside the highest directory it creates
//! (`.NAME.marsc-RANDOM.partial`), which the commit renames into place: nothing
//! appears under the user's path before every chunk is in, and an abort removes the
//! temporary directory. An array that `mode='w'` replaces is moved aside only at
//! the commit, then removed, so a failed run leaves it as it was. `mode='a'` on an
//! existing array writes its chunks in place (its metadata is already there and is
//! kept); a failed run may leave some chunks written.
//!
//! The lowering rechunks the saved tensor so that each region covers whole store
//! chunks (whole shards of a sharded array), so regions written from several
//! workers at once never touch one chunk. A worker encodes its region's chunks
//! itself, one after another, through one reused buffer (not through zarrs's
//! multi-chunk write, which copies each chunk into a fresh buffer and hands the
//! encoding to rayon's pool while the worker waits).

use super::metadata::{array_document, array_file, group_document};
use super::{codec_options, open_array, tuple_text, OpenedArray};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::storage::{KeySink, StoreError, StoreWriter};
use ndarray::{Axis, Slice};
use std::any::Any;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use zarrs::array::{ArraySubset, Element};

/// `mode=` of `tozarr`, as zarr-python spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteMode {
    /// `'w'`: create, replacing an array (or group) already there.
    Overwrite,
    /// `'w-'`: create; fail if anything is there.
    Create,
    /// `'a'`: write into the array there (same shape and dtype), else create it.
    Append,
}

impl WriteMode {
    pub fn name(self) -> &'static str {
        match self {
            WriteMode::Overwrite => "w",
            WriteMode::Create => "w-",
            WriteMode::Append => "a",
        }
    }
}

/// Blosc's inner compressor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BloscCname {
    Lz4,
    Lz4hc,
    Zstd,
    Zlib,
    Blosclz,
}

impl BloscCname {
    pub fn name(self) -> &'static str {
        match self {
            BloscCname::Lz4 => "lz4",
            BloscCname::Lz4hc => "lz4hc",
            BloscCname::Zstd => "zstd",
            BloscCname::Zlib => "zlib",
            BloscCname::Blosclz => "blosclz",
        }
    }
}

/// The compressor of a new array's chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compressor {
    None,
    /// zstd at its default level, zarr-python 3's default.
    Zstd,
    /// gzip level 5.
    Gzip,
    /// blosc level 5 with byte shuffle (bit shuffle for 1-byte types).
    Blosc(BloscCname),
}

impl Compressor {
    /// The spellings `compressor=` takes.
    pub fn from_name(name: &str) -> Option<Compressor> {
        Some(match name {
            "none" => Compressor::None,
            "zstd" => Compressor::Zstd,
            "gzip" => Compressor::Gzip,
            "blosc" | "blosc-lz4" => Compressor::Blosc(BloscCname::Lz4),
            "blosc-lz4hc" => Compressor::Blosc(BloscCname::Lz4hc),
            "blosc-zstd" => Compressor::Blosc(BloscCname::Zstd),
            "blosc-zlib" => Compressor::Blosc(BloscCname::Zlib),
            "blosc-blosclz" => Compressor::Blosc(BloscCname::Blosclz),
            _ => return None,
        })
    }

    pub const NAMES: &'static str =
        "None, 'none', 'zstd', 'gzip', 'blosc' (lz4), 'blosc-lz4', 'blosc-lz4hc', 'blosc-zstd', 'blosc-zlib' or 'blosc-blosclz'";

    pub fn name(self) -> String {
        match self {
            Compressor::None => "none".into(),
            Compressor::Zstd => "zstd".into(),
            Compressor::Gzip => "gzip".into(),
            Compressor::Blosc(cname) => format!("blosc-{}", cname.name()),
        }
    }
}

/// A new array's fill value, already of the array's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FillValue {
    /// `false`, `0` or `0.0`, as zarr-python writes by default.
    Default,
    Bool(bool),
    Int(i64),
    /// The bits of an `f64`.
    Float(u64),
}

/// What a `tozarr` asks for: plain data, carried by the save's IR.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZarrSave {
    /// The store's directory (the `path` the script named).
    pub root: PathBuf,
    pub mode: WriteMode,
    /// 2 or 3.
    pub zarr_format: u8,
    /// The chunk shape (inner chunks of a sharded array).
    pub chunks: Vec<usize>,
    /// The shard shape, a multiple of `chunks` (v3 only).
    pub shards: Option<Vec<usize>>,
    pub compressor: Compressor,
    pub fill_value: FillValue,
    /// `mode='a'` found this array at compile time and writes into it.
    pub existing: bool,
}

impl ZarrSave {
    /// The shape every region is a whole number of: the shards, else the chunks.
    pub fn write_unit(&self) -> &[usize] {
        self.shards.as_deref().unwrap_or(&self.chunks)
    }

    /// What the dumps show after the save's path.
    pub fn dump_parameters(&self) -> Vec<String> {
        let mut parameters = vec![
            "format=zarr".to_string(),
            format!("mode='{}'", self.mode.name()),
        ];
        if self.existing {
            parameters.push("existing".into());
        } else {
            parameters.push(format!("zarr_format={}", self.zarr_format));
            parameters.push(format!("chunks={}", tuple_text(&self.chunks)));
            if let Some(shards) = &self.shards {
                parameters.push(format!("shards={}", tuple_text(shards)));
            }
            parameters.push(format!("compressor='{}'", self.compressor.name()));
        }
        parameters
    }

    /// Writes what identifies the save's options into a chunk key.
    pub fn write_key(&self, key: &mut dyn KeySink) {
        key.path(&self.root);
        key.tag(self.mode as u8);
        key.tag(self.zarr_format);
        key.tag(self.existing as u8);
        for &size in &self.chunks {
            key.u64(size as u64);
        }
        for &size in self.shards.iter().flatten() {
            key.u64(size as u64);
        }
        key.tag(0xff);
        key.path(Path::new(&self.compressor.name()));
        match self.fill_value {
            FillValue::Default => key.tag(0),
            FillValue::Bool(b) => key.u64(b as u64),
            FillValue::Int(i) => key.u64(i as u64),
            FillValue::Float(bits) => key.u64(bits),
        }
    }
}

/// The run state of a save, from its create on.
struct Created {
    /// The temporary directory, until the commit or abort; `None` when writing into
    /// an existing array in place.
    temporary: Option<PathBuf>,
    /// The directory the commit renames the temporary one to.
    top: PathBuf,
    /// Whether `top` exists and the commit replaces it.
    replaces: bool,
    array: Arc<OpenedArray>,
}

/// The writer of one `tozarr`.
pub struct ZarrWriter {
    /// The array's directory (`root/group/dataset`).
    path: PathBuf,
    save: ZarrSave,
    dtype: DType,
    shape: Vec<usize>,
    state: Mutex<Option<Created>>,
}

impl ZarrWriter {
    pub fn new(path: &Path, save: &ZarrSave, dtype: DType, shape: &[usize]) -> ZarrWriter {
        ZarrWriter {
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
        let target = &self.path;
        let shown = self.shown();
        if target.symlink_metadata().is_ok() {
            match self.save.mode {
                WriteMode::Create => {
                    return Err(format!(
                        "'{shown}' already exists (mode='w-'); use mode='w' to replace it or mode='a' to write into it"
                    ))
                }
                WriteMode::Append if super::is_array(target) => return self.open_in_place(),
                WriteMode::Append if target.is_dir() && super::node_kind(target).is_some() => {
                    return Err(format!(
                        "'{shown}' is a Zarr group; mode='a' writes into an array: use mode='w' to replace the group"
                    ))
                }
                _ => {}
            }
            let empty = std::fs::read_dir(target)
                .map(|mut entries| entries.next().is_none())
                .unwrap_or(false);
            if !target.is_dir() || (!empty && super::node_kind(target).is_none()) {
                return Err(format!(
                    "'{shown}' exists and is not a Zarr array or group; marsc does not replace it"
                ));
            }
            return self.create_new(target.clone(), true);
        }
        // The highest directory to create: the store's root at most, whose parent
        // must exist.
        let mut top = target.clone();
        while top != self.save.root {
            match top.parent() {
                Some(parent) if parent.symlink_metadata().is_err() => top = parent.to_path_buf(),
                _ => break,
            }
        }
        let parent = crate::paths::directory_of(&top);
        if !parent.is_dir() {
            return Err(format!(
                "cannot create '{shown}': the directory '{}' does not exist",
                parent.display()
            ));
        }
        self.create_new(top, false)
    }

    /// Writes into the existing array at the target (`mode='a'`).
    fn open_in_place(&self) -> Result<Created, String> {
        let array = open_array(&self.path).map_err(|e| e.to_string())?;
        let shape: Vec<usize> = array.shape().iter().map(|&s| s as usize).collect();
        if super::marsc_dtype(array.data_type()) != Some(self.dtype) || shape != self.shape {
            return Err(format!(
                "cannot write into the Zarr array '{}' (mode='a'): it holds {} of shape {}, the tensor is {} of shape {}",
                self.shown(),
                array.data_type(),
                tuple_text(&shape),
                self.dtype.name(),
                tuple_text(&self.shape)
            ));
        }
        Ok(Created {
            temporary: None,
            top: self.path.clone(),
            replaces: false,
            array: Arc::new(array),
        })
    }

    /// Writes the new array (and its new groups) into a temporary directory that
    /// stands for `top`.
    fn create_new(&self, top: PathBuf, replaces: bool) -> Result<Created, String> {
        let temporary = hidden_directory(&top, "partial")?;
        let made = self.fill_temporary(&top, &temporary);
        match made {
            Ok(array) => Ok(Created {
                temporary: Some(temporary),
                top,
                replaces,
                array: Arc::new(array),
            }),
            Err(error) => {
                let _ = std::fs::remove_dir_all(&temporary);
                Err(error)
            }
        }
    }

    fn fill_temporary(&self, top: &Path, temporary: &Path) -> Result<OpenedArray, String> {
        let relative = self.path.strip_prefix(top).unwrap_or(Path::new(""));
        let io = |e: std::io::Error| e.to_string();
        // Every new directory above the array is a group.
        let mut directory = temporary.to_path_buf();
        for component in relative.components() {
            let (file, document) = group_document(self.save.zarr_format);
            write_json(&directory.join(file), &document).map_err(io)?;
            directory.push(component);
            std::fs::create_dir(&directory).map_err(io)?;
        }
        let document = array_document(&self.save, self.dtype, &self.shape);
        write_json(
            &directory.join(array_file(self.save.zarr_format)),
            &document,
        )
        .map_err(io)?;
        open_array(&directory).map_err(|e| e.to_string())
    }

    /// Writes the region at `offset`: each store chunk (shard) it covers whole is
    /// gathered into one buffer, reused from chunk to chunk, and encoded and stored
    /// on this thread; a part of a chunk (an edge chunk of the array, or a region that
    /// cuts chunks under `mode='a'`) goes through zarrs's subset write.
    fn write<T: Element + Clone>(
        &self,
        array: &OpenedArray,
        offset: &[usize],
        data: &ndarray::ArrayD<T>,
    ) -> Result<(), String> {
        let ranges: Vec<Range<u64>> = offset
            .iter()
            .zip(data.shape())
            .map(|(&start, &len)| start as u64..(start + len) as u64)
            .collect();
        let region = ArraySubset::new_with_ranges(&ranges);
        let options = codec_options();
        let chunks = match array.chunks_in_array_subset(&region) {
            Ok(Some(chunks)) if data.ndim() > 0 => chunks,
            _ => return self.write_subset(array, &region, data.view()),
        };
        let mut buffer: Vec<T> = Vec::new();
        for chunk in chunks.indices() {
            let whole = array.chunk_subset(&chunk).map_err(|e| e.to_string())?;
            let part = whole.overlap(&region).map_err(|e| e.to_string())?;
            let view = data.slice_each_axis(|axis| {
                let i = axis.axis.index();
                let start = (part.start()[i] - ranges[i].start) as usize;
                Slice::from(start..start + part.shape()[i] as usize)
            });
            if part != whole {
                self.write_subset(array, &part, view)?;
                continue;
            }
            buffer.clear();
            // Room for the whole chunk at once: no growing (and copying) lane by lane.
            buffer
                .try_reserve_exact(whole.num_elements_usize())
                .map_err(|e| e.to_string())?;
            let last = Axis(view.ndim() - 1);
            for lane in view.lanes(last) {
                match lane.as_slice() {
                    Some(items) => buffer.extend_from_slice(items),
                    None => buffer.extend(lane.iter().cloned()),
                }
            }
            array
                .store_chunk_opt(&chunk, &buffer[..], &options)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Writes `data` to the array's `subset` with one zarrs call.
    fn write_subset<T: Element + Clone>(
        &self,
        array: &OpenedArray,
        subset: &ArraySubset,
        data: ndarray::ArrayViewD<'_, T>,
    ) -> Result<(), String> {
        let owned;
        let elements: &[T] = match data.as_slice() {
            Some(elements) => elements,
            None => {
                owned = data.iter().cloned().collect::<Vec<T>>();
                &owned
            }
        };
        array
            .store_array_subset_opt(subset, elements, &codec_options())
            .map_err(|e| e.to_string())
    }
}

/// A new hidden directory `.NAME.marsc-RANDOM.KIND` beside `path`.
fn hidden_directory(path: &Path, kind: &str) -> Result<PathBuf, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "zarr".into());
    // Keep the name within NAME_MAX (255 bytes) whatever the user's name.
    let name: String = name.chars().take(180).collect();
    tempfile::Builder::new()
        .prefix(&format!(".{name}.marsc-"))
        .suffix(&format!(".{kind}"))
        .rand_bytes(8)
        .tempdir_in(crate::paths::directory_of(path))
        .map(|dir| dir.keep())
        .map_err(|e| {
            format!(
                "cannot create a temporary directory beside '{}': {e}",
                path.display()
            )
        })
}

fn write_json(path: &Path, document: &serde_json::Value) -> std::io::Result<()> {
    let text = serde_json::to_vec_pretty(document).map_err(std::io::Error::other)?;
    std::fs::write(path, text)
}

impl StoreWriter for ZarrWriter {
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
        let array = match &*self.state() {
            Some(created) => created.array.clone(),
            None => {
                return Err(StoreError::Internal(format!(
                    "internal error: '{}' was not created",
                    self.shown()
                )))
            }
        };
        match data {
            ArrayData::Complex64(_) | ArrayData::Complex128(_) => {
                return Err(StoreError::NotSupported(format!(
                    "not supported yet: writing {} to Zarr",
                    data.dtype()
                )))
            }
            ArrayData::Bool(a) => self.write(&array, offset, a),
            ArrayData::Int8(a) => self.write(&array, offset, a),
            ArrayData::Int16(a) => self.write(&array, offset, a),
            ArrayData::Int32(a) => self.write(&array, offset, a),
            ArrayData::Int64(a) => self.write(&array, offset, a),
            ArrayData::UInt8(a) => self.write(&array, offset, a),
            ArrayData::UInt16(a) => self.write(&array, offset, a),
            ArrayData::UInt32(a) => self.write(&array, offset, a),
            ArrayData::UInt64(a) => self.write(&array, offset, a),
            ArrayData::Float16(a) => self.write(&array, offset, a),
            ArrayData::Float32(a) => self.write(&array, offset, a),
            ArrayData::Float64(a) => self.write(&array, offset, a),
        }
        .map_err(|e| StoreError::Io(self.error(e)))
    }

    fn commit(&self) -> Result<(), StoreError> {
        let mut state = self.state();
        let Some(created) = state.as_mut() else {
            return Err(StoreError::Internal(format!(
                "internal error: '{}' was not created",
                self.shown()
            )));
        };
        let Some(temporary) = created.temporary.clone() else {
            return Ok(());
        };
        let top = &created.top;
        let io = |e: std::io::Error| StoreError::Io(self.error(e.to_string()));
        if created.replaces {
            // rename(2) replaces an empty directory: move the old array aside into a
            // fresh hidden one, the new one in, then remove the old.
            let aside = hidden_directory(top, "old").map_err(|e| StoreError::Io(self.error(e)))?;
            std::fs::rename(top, &aside).map_err(io)?;
            if let Err(error) = std::fs::rename(&temporary, top) {
                let _ = std::fs::rename(&aside, top);
                return Err(io(error));
            }
            let _ = std::fs::remove_dir_all(&aside);
        } else {
            std::fs::rename(&temporary, top).map_err(io)?;
        }
        created.temporary = None;
        Ok(())
    }

    fn abort(&self) {
        if let Some(created) = self.state().as_mut() {
            if let Some(temporary) = created.temporary.take() {
                let _ = std::fs::remove_dir_all(temporary);
            }
        }
    }

    fn temporary(&self) -> Option<PathBuf> {
        self.state().as_ref().and_then(|c| c.temporary.clone())
    }

    fn error(&self, message: String) -> String {
        let shown = self.shown();
        if message.contains(&shown) {
            message
        } else {
            format!("cannot write the Zarr array '{shown}': {message}")
        }
    }

    fn same_as(&self, other: &dyn StoreWriter) -> bool {
        (other as &dyn Any)
            .downcast_ref::<ZarrWriter>()
            .is_some_and(|other| {
                self.path == other.path
                    && self.save == other.save
                    && self.dtype == other.dtype
                    && self.shape == other.shape
            })
    }
}

impl fmt::Debug for ZarrWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ZarrWriter")
            .field("path", &self.path)
            .field("save", &self.save)
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .finish()
    }
}
