//! `.npz` archives: a zip file of `.npy` members, as `np.savez` and
//! `np.savez_compressed` write them.
//!
//! - Reading (`load("f.npz")["name"]`): [`read_archive`] reads the zip directory and
//!   each member's `.npy` header at compile time (the `zip` crate). A member stored
//!   uncompressed is read in place, by offset, as a `.npy` file whose data starts
//!   inside the archive ([`super::npy::NpyStore::member`]); a deflated member is
//!   inflated whole, once per run, into an unnamed temporary file
//!   ([`CompressedMemberReader`]) and read from there.
//! - Writing (`savez(file, *args, **kwds)`): each member is a save of its own to the
//!   archive's path ([`NpzWriter`]; saves to one path run in program order). The
//!   first member creates a hidden temporary archive beside the file
//!   (`.NAME.marsc-npzNONCE.partial`, exclusively), every member appends its local
//!   header and `.npy` header and writes its regions in place (stored, zip64), its
//!   commit fills in the CRC-32 (`savez_compressed`: deflates the member, the
//!   archive's last so far, into its own place and cuts the file after it), and the
//!   last member's commit writes the central directory and renames the archive into
//!   place. A failed run removes the
//!   temporary archive.

use super::npy::header::{header_span, parse_header, NpyError, NpyHeader};
use super::npy::NpyStore;
use super::{
    ChunkGrid, KeySink, SharedReaders, Store, StoreError, StoreMetadata, StoreReader, StoreRef,
    StoreWriter,
};
use crate::array::ArrayData;
use crate::dtype::DType;
use std::any::Any;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// One member of an archive, as its directory and `.npy` header say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpzEntry {
    /// The name in the archive (`a.npy`).
    pub name: String,
    /// Its position in the directory.
    pub index: usize,
    /// The member's `.npy` header; `data_offset` counts from the member's start.
    pub header: NpyHeader,
    /// Where the member's bytes start in the archive.
    pub data_start: u64,
    /// Deflated (`savez_compressed`), not stored.
    pub compressed: bool,
}

impl NpzEntry {
    /// The name NumPy's `files` lists: without `.npy`.
    pub fn key(&self) -> &str {
        self.name.strip_suffix(".npy").unwrap_or(&self.name)
    }
}

/// An archive's members, read at compile time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpzArchive {
    pub path: PathBuf,
    pub entries: Vec<NpzEntry>,
}

impl NpzArchive {
    /// The member `key` names, as `NpzFile[key]` finds it (`a` or `a.npy`).
    pub fn entry(&self, key: &str) -> Option<&NpzEntry> {
        self.entries
            .iter()
            .find(|e| e.name == key)
            .or_else(|| self.entries.iter().find(|e| e.key() == key))
    }

    /// The member's store.
    pub fn open(&self, entry: &NpzEntry) -> StoreRef {
        if entry.compressed {
            return StoreRef::new(Arc::new(CompressedMember::new(&self.path, entry)));
        }
        let mut header = entry.header.clone();
        header.data_offset += entry.data_start;
        StoreRef::new(Arc::new(NpyStore::member(&self.path, header, &entry.name)))
    }
}

/// Whether the file at `path` starts as a zip file does (`np.load`'s test).
pub fn is_zip(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|f| f.read_exact_at(&mut magic, 0))
        .is_ok()
        && &magic == b"PK\x03\x04"
}

/// Reads the archive's directory and every member's `.npy` header.
pub fn read_archive(path: &Path) -> Result<NpzArchive, StoreError> {
    let shown = path.display();
    let message = |e: &dyn fmt::Display| format!("cannot read the archive '{shown}': {e}");
    let bad = |e: &dyn fmt::Display| StoreError::Data(message(e));
    let file = File::open(path).map_err(|e| StoreError::Io(message(&e)))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| bad(&e))?;
    let mut entries = Vec::new();
    for index in 0..archive.len() {
        let (name, data_start, compression) = {
            let member = archive.by_index_raw(index).map_err(|e| bad(&e))?;
            (
                member.name().map_err(|e| bad(&e))?.to_string(),
                member.data_start().unwrap_or(0),
                member.compression(),
            )
        };
        let compressed = match compression {
            zip::CompressionMethod::Stored => false,
            zip::CompressionMethod::Deflated => true,
            other => {
                return Err(StoreError::NotSupported(format!(
                    "not supported yet: the member '{name}' of '{shown}' is compressed with {other}; marsc reads stored and deflated members"
                )))
            }
        };
        let member = archive.by_index(index).map_err(|e| bad(&e))?;
        let header = read_member_header(member).map_err(|e| {
            StoreError::from(e)
                .map_message(|e| format!("cannot read the member '{name}' of '{shown}': {e}"))
        })?;
        entries.push(NpzEntry {
            name,
            index,
            header,
            data_start,
            compressed,
        });
    }
    Ok(NpzArchive {
        path: path.to_path_buf(),
        entries,
    })
}

/// The `.npy` header at the start of a (decompressing) reader.
fn read_member_header(reader: impl Read) -> Result<NpyHeader, NpyError> {
    let mut reader = reader.take(1 << 20);
    let mut prefix = Vec::new();
    let io = |e: std::io::Error| NpyError::Io(e.to_string());
    (&mut reader)
        .take(12)
        .read_to_end(&mut prefix)
        .map_err(io)?;
    if let Ok((_, end)) = header_span(&prefix) {
        let rest = end.saturating_sub(prefix.len()) as u64;
        (&mut reader)
            .take(rest)
            .read_to_end(&mut prefix)
            .map_err(io)?;
    }
    parse_header(&prefix)
}

/// A deflated member: inflated whole, once per run, when first read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedMember {
    path: PathBuf,
    entry: NpzEntry,
    metadata: StoreMetadata,
}

impl CompressedMember {
    fn new(path: &Path, entry: &NpzEntry) -> CompressedMember {
        CompressedMember {
            path: path.to_path_buf(),
            entry: entry.clone(),
            metadata: StoreMetadata {
                dtype: entry.header.dtype,
                shape: entry.header.shape.clone(),
                c_contiguous: !entry.header.fortran_order,
                chunk_grid: ChunkGrid::Any,
            },
        }
    }
}

impl Store for CompressedMember {
    fn path(&self) -> &Path {
        &self.path
    }

    fn metadata(&self) -> &StoreMetadata {
        &self.metadata
    }

    fn dump_parameters(&self) -> Vec<String> {
        vec![
            format!("{:?}", self.path.display().to_string()),
            format!("member={:?}", self.entry.name),
            "deflated".into(),
        ]
    }

    fn write_key(&self, key: &mut dyn KeySink) {
        key.path(&self.path);
        key.tag(b'n');
        key.path(Path::new(&self.entry.name));
        key.u64(self.entry.index as u64);
    }

    fn reads_cannot_fail(&self) -> bool {
        false
    }

    fn reader(&self, label: u32, shared: &mut SharedReaders) -> Arc<dyn StoreReader> {
        // One inflated copy per member per run, shared by every load of it.
        let key = self.path.join(&self.entry.name);
        shared.get_or_insert_with("npz", &key, || {
            Arc::new(CompressedMemberReader {
                path: self.path.clone(),
                entry: self.entry.clone(),
                label,
                inflated: OnceLock::new(),
            })
        })
    }

    fn same_as(&self, other: &dyn Store) -> bool {
        (other as &dyn Any).downcast_ref::<CompressedMember>() == Some(self)
    }
}

/// The reader of a deflated member.
pub struct CompressedMemberReader {
    path: PathBuf,
    entry: NpzEntry,
    label: u32,
    /// The member inflated into an unnamed temporary file.
    inflated: OnceLock<Result<File, StoreError>>,
}

impl CompressedMemberReader {
    fn file(&self) -> Result<&File, StoreError> {
        self.inflated
            .get_or_init(|| self.inflate())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn inflate(&self) -> Result<File, StoreError> {
        let shown = self.path.display();
        let failed = |e: &dyn fmt::Display| {
            StoreError::Io(format!(
                "cannot read the member '{}' of '{shown}': {e}",
                self.entry.name
            ))
        };
        let changed =
            || StoreError::Data(format!("'{shown}' changed since the script was compiled"));
        let archive_file = File::open(&self.path).map_err(|e| failed(&e))?;
        let mut archive = zip::ZipArchive::new(archive_file).map_err(|e| failed(&e))?;
        let mut member = archive.by_index(self.entry.index).map_err(|e| failed(&e))?;
        if member.name().ok().as_deref() != Some(self.entry.name.as_str()) {
            return Err(changed());
        }
        let mut inflated = tempfile::tempfile().map_err(|e| failed(&e))?;
        std::io::copy(&mut member, &mut inflated).map_err(|e| failed(&e))?;
        let needed = self.entry.header.data_offset + self.entry.header.data_bytes();
        let len = inflated.metadata().map_err(|e| failed(&e))?.len();
        let mut prefix = vec![0u8; self.entry.header.data_offset as usize];
        inflated
            .read_exact_at(&mut prefix, 0)
            .map_err(|e| failed(&e))?;
        if len < needed || parse_header(&prefix).as_ref() != Ok(&self.entry.header) {
            return Err(changed());
        }
        Ok(inflated)
    }
}

impl StoreReader for CompressedMemberReader {
    fn open(&self) -> Result<(), StoreError> {
        self.file().map(drop)
    }

    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError> {
        let file = self.file()?;
        super::npy::codec::read_region_of(file, &self.path, &self.entry.header, offset, shape)
            .map_err(|e| {
                StoreError::from(e)
                    .map_message(|e| format!("cannot read '{}': {e}", self.path.display()))
            })
    }

    fn label(&self) -> u32 {
        self.label
    }

    fn same_as(&self, other: &dyn StoreReader) -> bool {
        (other as &dyn Any)
            .downcast_ref::<CompressedMemberReader>()
            .is_some_and(|o| o.path == self.path && o.entry == self.entry)
    }
}

impl fmt::Debug for CompressedMemberReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompressedMemberReader")
            .field("path", &self.path)
            .field("member", &self.entry.name)
            .finish()
    }
}

/// One member of a `savez`: plain data the IR carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NpzSave {
    /// Names the archive's temporary file, shared by the members of one `savez`.
    pub nonce: u64,
    /// The member's name, without `.npy`.
    pub name: String,
    pub index: usize,
    pub count: usize,
    /// Deflated on commit (`savez_compressed`), not stored.
    pub compressed: bool,
}

impl NpzSave {
    pub fn dump_parameters(&self) -> Vec<String> {
        let mut parameters = vec![
            "format=npz".into(),
            format!("member={:?}", format!("{}.npy", self.name)),
            format!("of={}", self.count),
        ];
        if self.compressed {
            parameters.push("deflated".into());
        }
        parameters
    }

    pub fn write_key(&self, key: &mut dyn KeySink) {
        key.u64(self.nonce);
        key.path(Path::new(&self.name));
        key.u64(self.index as u64);
        key.u64(self.count as u64);
        key.tag(self.compressed as u8);
    }

    fn is_last(&self) -> bool {
        self.index + 1 == self.count
    }
}

/// Zip's markers and sizes.
const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
const CENTRAL_SIGNATURE: u32 = 0x0201_4b50;
const END_SIGNATURE: u32 = 0x0605_4b50;
const ZIP64_END_SIGNATURE: u32 = 0x0606_4b50;
const ZIP64_LOCATOR_SIGNATURE: u32 = 0x0706_4b50;
/// 1980-01-01 00:00, zip's earliest date.
const DOS_DATE: u16 = 0x0021;
const ZIP64_VERSION: u16 = 45;
/// The fixed part of a local header, then its zip64 extra field (sizes).
const LOCAL_FIXED: u64 = 30;
const LOCAL_EXTRA: u64 = 20;

/// A member being written.
struct Member {
    /// Where its local header starts.
    start: u64,
    /// Where its element data starts.
    data_offset: u64,
    /// The bytes of `.npy` file it holds (header and data).
    size: u64,
}

/// The writer of one member of a `savez`.
pub struct NpzWriter {
    path: PathBuf,
    save: NpzSave,
    dtype: DType,
    shape: Vec<usize>,
    state: Mutex<Option<Member>>,
}

impl NpzWriter {
    pub fn new(path: &Path, save: &NpzSave, dtype: DType, shape: &[usize]) -> NpzWriter {
        NpzWriter {
            path: path.to_path_buf(),
            save: save.clone(),
            dtype,
            shape: shape.to_vec(),
            state: Mutex::new(None),
        }
    }

    fn target(&self) -> PathBuf {
        crate::paths::resolve_symlinks(&self.path).unwrap_or_else(|_| self.path.clone())
    }

    /// The archive's temporary file, the same for every member of one `savez`.
    fn archive_temporary(&self) -> PathBuf {
        let target = self.target();
        let name: String = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
            .chars()
            .take(180)
            .collect();
        crate::paths::directory_of(&target)
            .join(format!(".{name}.marsc-npz{:016x}.partial", self.save.nonce))
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Option<Member>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn create_member(&self) -> Result<Member, String> {
        let temporary = self.archive_temporary();
        let target = self.target();
        if target.is_dir() {
            return Err("Is a directory (os error 21)".into());
        }
        let file = if self.save.index == 0 {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(&temporary)
        } else {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&temporary)
        }
        .map_err(|e| e.to_string())?;
        let start = file.metadata().map_err(|e| e.to_string())?.len();
        let name = format!("{}.npy", self.save.name);
        let npy_header = super::npy::header::encode_header(self.dtype, &self.shape);
        let data_bytes = self
            .shape
            .iter()
            .try_fold(self.dtype.itemsize() as u64, |acc, &d| {
                acc.checked_mul(d as u64)
            })
            .ok_or("the array is too large")?;
        let size = npy_header.len() as u64 + data_bytes;
        let mut local = Vec::new();
        local.extend_from_slice(&LOCAL_SIGNATURE.to_le_bytes());
        local.extend_from_slice(&ZIP64_VERSION.to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes()); // flags
        local.extend_from_slice(&0u16.to_le_bytes()); // stored
        local.extend_from_slice(&0u16.to_le_bytes()); // time
        local.extend_from_slice(&DOS_DATE.to_le_bytes());
        local.extend_from_slice(&0u32.to_le_bytes()); // CRC-32, filled in on commit
        local.extend_from_slice(&u32::MAX.to_le_bytes());
        local.extend_from_slice(&u32::MAX.to_le_bytes());
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&(LOCAL_EXTRA as u16).to_le_bytes());
        local.extend_from_slice(name.as_bytes());
        local.extend_from_slice(&1u16.to_le_bytes());
        local.extend_from_slice(&16u16.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&npy_header);
        file.write_all_at(&local, start)
            .map_err(|e| e.to_string())?;
        let data_offset = start + local.len() as u64;
        file.set_len(data_offset + data_bytes)
            .map_err(|e| e.to_string())?;
        Ok(Member {
            start,
            data_offset,
            size,
        })
    }

    /// Fills in the member's CRC-32; the last member adds the central directory and
    /// moves the archive into place.
    fn finish(&self, member: &Member) -> Result<(), String> {
        let temporary = self.archive_temporary();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&temporary)
            .map_err(|e| e.to_string())?;
        let name_len = self.save.name.len() as u64 + 4;
        let body = member.start + LOCAL_FIXED + name_len + LOCAL_EXTRA;
        if self.save.compressed {
            // The member is the archive's last so far: deflate it into its own place
            // and cut the file after it.
            let (crc, compressed) = deflate_in_place(&file, body, member.size)?;
            let extra = member.start + LOCAL_FIXED + name_len + 4;
            file.write_all_at(&8u16.to_le_bytes(), member.start + 8)
                .and_then(|()| file.write_all_at(&crc.to_le_bytes(), member.start + 14))
                .and_then(|()| file.write_all_at(&compressed.to_le_bytes(), extra + 8))
                .map_err(|e| e.to_string())?;
        } else {
            let crc = crc_of(&file, body, member.size)?;
            file.write_all_at(&crc.to_le_bytes(), member.start + 14)
                .map_err(|e| e.to_string())?;
        }
        debug_assert!(member.data_offset >= body);
        if !self.save.is_last() {
            return Ok(());
        }
        write_central_directory(&file)?;
        file.sync_all().map_err(|e| e.to_string())?;
        drop(file);
        std::fs::rename(&temporary, self.target()).map_err(|e| e.to_string())
    }
}

/// The CRC-32 of `len` bytes of `file` from `start`.
fn crc_of(file: &File, start: u64, len: u64) -> Result<u32, String> {
    let mut hasher = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut done = 0u64;
    while done < len {
        let n = (len - done).min(buffer.len() as u64) as usize;
        file.read_exact_at(&mut buffer[..n], start + done)
            .map_err(|e| e.to_string())?;
        hasher.update(&buffer[..n]);
        done += n as u64;
    }
    Ok(hasher.finalize())
}

/// Deflates the `len` bytes of `file` at `start` (zip's raw deflate, zlib's default
/// level, as `np.savez_compressed` writes) through an unnamed temporary file, writes
/// them back at `start` and cuts the file after them; returns the CRC-32 of the
/// bytes and their deflated length.
fn deflate_in_place(file: &File, start: u64, len: u64) -> Result<(u32, u64), String> {
    use std::io::{Seek, SeekFrom, Write};
    let io = |e: std::io::Error| e.to_string();
    let mut hasher = crc32fast::Hasher::new();
    let mut encoder = flate2::write::DeflateEncoder::new(
        tempfile::tempfile().map_err(io)?,
        flate2::Compression::new(6),
    );
    let mut buffer = vec![0u8; 1 << 20];
    let mut done = 0u64;
    while done < len {
        let n = (len - done).min(buffer.len() as u64) as usize;
        file.read_exact_at(&mut buffer[..n], start + done)
            .map_err(io)?;
        hasher.update(&buffer[..n]);
        encoder.write_all(&buffer[..n]).map_err(io)?;
        done += n as u64;
    }
    let mut deflated = encoder.finish().map_err(io)?;
    let compressed = deflated.stream_position().map_err(io)?;
    deflated.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut at = start;
    loop {
        let n = deflated.read(&mut buffer).map_err(io)?;
        if n == 0 {
            break;
        }
        file.write_all_at(&buffer[..n], at).map_err(io)?;
        at += n as u64;
    }
    file.set_len(start + compressed).map_err(io)?;
    Ok((hasher.finalize(), compressed))
}

/// Reads back the local headers this writer wrote and appends the central directory
/// and its end records (zip64 where the sizes need it).
fn write_central_directory(file: &File) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let end = file.metadata().map_err(io)?.len();
    let mut central = Vec::new();
    let mut count = 0u64;
    let mut at = 0u64;
    while at < end {
        let mut fixed = [0u8; LOCAL_FIXED as usize];
        file.read_exact_at(&mut fixed, at).map_err(io)?;
        let u16_at = |i: usize| u16::from_le_bytes([fixed[i], fixed[i + 1]]);
        let method = u16_at(8);
        let crc = u32::from_le_bytes(fixed[14..18].try_into().unwrap_or_default());
        let name_len = u64::from(u16_at(26));
        let extra_len = u64::from(u16_at(28));
        let mut name = vec![0u8; name_len as usize];
        file.read_exact_at(&mut name, at + LOCAL_FIXED)
            .map_err(io)?;
        let mut sizes = [0u8; 16];
        file.read_exact_at(&mut sizes, at + LOCAL_FIXED + name_len + 4)
            .map_err(io)?;
        let size = u64::from_le_bytes(sizes[..8].try_into().unwrap_or_default());
        let compressed = u64::from_le_bytes(sizes[8..].try_into().unwrap_or_default());
        let zip64 = size.max(compressed) >= u64::from(u32::MAX) || at >= u64::from(u32::MAX);
        let mut extra = Vec::new();
        if zip64 {
            extra.extend_from_slice(&1u16.to_le_bytes());
            extra.extend_from_slice(&24u16.to_le_bytes());
            extra.extend_from_slice(&size.to_le_bytes());
            extra.extend_from_slice(&compressed.to_le_bytes());
            extra.extend_from_slice(&at.to_le_bytes());
        }
        let small = |v: u64| if zip64 { u32::MAX } else { v as u32 };
        central.extend_from_slice(&CENTRAL_SIGNATURE.to_le_bytes());
        central.extend_from_slice(&(ZIP64_VERSION | (3 << 8)).to_le_bytes()); // made by Unix
        central.extend_from_slice(&ZIP64_VERSION.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes()); // flags
        central.extend_from_slice(&method.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes()); // time
        central.extend_from_slice(&DOS_DATE.to_le_bytes());
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&small(compressed).to_le_bytes());
        central.extend_from_slice(&small(size).to_le_bytes());
        central.extend_from_slice(&(name_len as u16).to_le_bytes());
        central.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&(0o100644u32 << 16).to_le_bytes());
        central.extend_from_slice(&small(at).to_le_bytes());
        central.extend_from_slice(&name);
        central.extend_from_slice(&extra);
        count += 1;
        at += LOCAL_FIXED + name_len + extra_len + compressed;
    }
    let central_size = central.len() as u64;
    let big = end >= u64::from(u32::MAX) || central_size >= u64::from(u32::MAX) || count >= 0xffff;
    if big {
        let record = end + central_size;
        central.extend_from_slice(&ZIP64_END_SIGNATURE.to_le_bytes());
        central.extend_from_slice(&44u64.to_le_bytes());
        central.extend_from_slice(&ZIP64_VERSION.to_le_bytes());
        central.extend_from_slice(&ZIP64_VERSION.to_le_bytes());
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&count.to_le_bytes());
        central.extend_from_slice(&count.to_le_bytes());
        central.extend_from_slice(&central_size.to_le_bytes());
        central.extend_from_slice(&end.to_le_bytes());
        central.extend_from_slice(&ZIP64_LOCATOR_SIGNATURE.to_le_bytes());
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&record.to_le_bytes());
        central.extend_from_slice(&1u32.to_le_bytes());
    }
    let clamp16 = |v: u64| if big { u16::MAX } else { v as u16 };
    let clamp32 = |v: u64| if big { u32::MAX } else { v as u32 };
    central.extend_from_slice(&END_SIGNATURE.to_le_bytes());
    central.extend_from_slice(&0u16.to_le_bytes());
    central.extend_from_slice(&0u16.to_le_bytes());
    central.extend_from_slice(&clamp16(count).to_le_bytes());
    central.extend_from_slice(&clamp16(count).to_le_bytes());
    central.extend_from_slice(&clamp32(central_size).to_le_bytes());
    central.extend_from_slice(&clamp32(end).to_le_bytes());
    central.extend_from_slice(&0u16.to_le_bytes());
    file.write_all_at(&central, end).map_err(io)
}

impl StoreWriter for NpzWriter {
    fn path(&self) -> &Path {
        &self.path
    }

    fn create(&self) -> Result<(), StoreError> {
        let mut state = self.state();
        if state.is_none() {
            *state = Some(
                self.create_member()
                    .map_err(|e| StoreError::Io(self.error(e)))?,
            );
        }
        Ok(())
    }

    fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError> {
        let data_offset = match &*self.state() {
            Some(member) => member.data_offset,
            None => {
                return Err(StoreError::Internal(
                    self.error("internal error: a region before the init".into()),
                ))
            }
        };
        super::npy::codec::write_region(
            &self.archive_temporary(),
            data_offset,
            &self.shape,
            offset,
            data,
        )
        .map_err(|e| {
            StoreError::from(e).map_message(|e| {
                self.error(e.replace(
                    &self.archive_temporary().display().to_string(),
                    "the archive",
                ))
            })
        })
    }

    fn commit(&self) -> Result<(), StoreError> {
        let state = self.state();
        let Some(member) = state.as_ref() else {
            return Err(StoreError::Internal(
                self.error("internal error: a commit before the init".into()),
            ));
        };
        self.finish(member)
            .map_err(|e| StoreError::Io(self.error(e)))
    }

    fn abort(&self) {
        // Any member removes the archive's temporary file: a failed run never
        // reached the last member's commit, which renames it.
        let _ = std::fs::remove_file(self.archive_temporary());
    }

    fn temporary(&self) -> Option<PathBuf> {
        self.state().as_ref().map(|_| self.archive_temporary())
    }

    fn error(&self, message: String) -> String {
        let shown = self.path.display().to_string();
        if message.contains(&shown) {
            message
        } else {
            format!("cannot save '{shown}': {message}")
        }
    }

    fn same_as(&self, other: &dyn StoreWriter) -> bool {
        (other as &dyn Any)
            .downcast_ref::<NpzWriter>()
            .is_some_and(|o| {
                o.path == self.path
                    && o.save == self.save
                    && o.dtype == self.dtype
                    && o.shape == self.shape
            })
    }
}

impl fmt::Debug for NpzWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NpzWriter")
            .field("path", &self.path)
            .field("save", &self.save)
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .finish()
    }
}
