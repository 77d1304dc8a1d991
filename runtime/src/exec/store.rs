//! A worker's chunk store (values in memory, plus the chunks it spilled to files),
//! and the fast maps keyed by ids that the store and the coordinator use. The store
//! counts the bytes it holds in memory, so a worker knows its own footprint.
//!
//! Values in memory are found by chunk id without hashing: [`ChunkSlots`] is a table
//! indexed by the dense id, in pages allocated while they hold a chunk, so memory
//! follows the chunks held (a page per run of nearby ids), not the plan size, beyond
//! one pointer per page of ids.

use super::ChunkKernel;
use crate::plan::ChunkId;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Hashes an id (chunk or subtask) by one multiplication: ids are dense small
/// integers, so they need spreading into the high bits, not protection against
/// adversarial keys.
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A hash map keyed by an id newtype.
pub type IdMap<Id, T> = HashMap<Id, T, BuildHasherDefault<IdHasher>>;

/// A hash map keyed by chunk id.
pub type ChunkMap<T> = IdMap<ChunkId, T>;

/// Writes `value` to a new file at `path`; returns the bytes the value accounts for.
pub fn write_spill_file<K: ChunkKernel>(path: &Path, value: &K::Value) -> io::Result<u64> {
    let mut out = BufWriter::new(File::create(path)?);
    K::spill(value, &mut out)?;
    out.flush()?;
    Ok(K::nbytes(value) as u64)
}

/// Reads a value written by [`write_spill_file`].
pub fn read_spill_file<K: ChunkKernel>(path: &Path) -> io::Result<K::Value> {
    let mut input = BufReader::new(File::open(path)?);
    K::unspill(&mut input)
}

/// Why a chunk could not be moved to or from its spill file.
#[derive(Debug)]
pub enum SpillError {
    /// The chunk is not where the executor's records say it is: an executor bug.
    Missing(String),
    /// Writing the spill file failed.
    Write {
        chunk: ChunkId,
        path: PathBuf,
        source: io::Error,
    },
    /// Reading a spill file back failed.
    Read {
        chunk: ChunkId,
        path: PathBuf,
        source: io::Error,
    },
}

impl fmt::Display for SpillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpillError::Missing(message) => write!(f, "internal error: {message}"),
            SpillError::Write {
                chunk,
                path,
                source,
            } => write!(
                f,
                "cannot spill chunk {chunk} to {}: {source}",
                path.display()
            ),
            SpillError::Read {
                chunk,
                path,
                source,
            } => write!(
                f,
                "cannot read spilled chunk {chunk} back from {}: {source}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SpillError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SpillError::Missing(_) => None,
            SpillError::Write { source, .. } | SpillError::Read { source, .. } => Some(source),
        }
    }
}

/// Reads the spill file of `chunk` at `path`.
pub fn read_spilled_chunk<K: ChunkKernel>(
    chunk: ChunkId,
    path: &Path,
) -> Result<K::Value, SpillError> {
    read_spill_file::<K>(path).map_err(|source| SpillError::Read {
        chunk,
        path: path.to_path_buf(),
        source,
    })
}

/// Ids per page of [`ChunkSlots`]: 2 KiB of pointers, small next to the chunks a page
/// holds, and few enough pages that the page table is a small part of the plan.
const PAGE_BITS: u32 = 8;
const PAGE: usize = 1 << PAGE_BITS;

/// Values by chunk id: a page table over the dense ids, each page taken when a
/// chunk of its ids arrives and put back when its last one leaves. Pages put back are
/// kept for the next (as many as were ever in use at once, so never more than the
/// store's own peak): a page's worth of ids empties and fills again many times in a
/// run (a reduction tree's leaves are run in the Z-order of their priorities, a few
/// ids of a row at a time), and each refill would otherwise allocate, clear and copy
/// 2 KiB. A lookup is two indexed loads, where a hash map hashed and probed.
pub struct ChunkSlots<T> {
    pages: Vec<Option<Page<T>>>,
    /// Empty pages kept for reuse.
    spare: Vec<Page<T>>,
}

struct Page<T> {
    /// `PAGE` slots, allocated in place (a boxed array built on the stack would be
    /// copied into the heap).
    slots: Box<[Option<T>]>,
    /// Slots holding a value.
    used: u32,
}

impl<T> Page<T> {
    fn new() -> Self {
        Page {
            slots: (0..PAGE).map(|_| None).collect(),
            used: 0,
        }
    }
}

impl<T> Default for ChunkSlots<T> {
    fn default() -> Self {
        ChunkSlots {
            pages: Vec::new(),
            spare: Vec::new(),
        }
    }
}

impl<T> ChunkSlots<T> {
    #[inline]
    fn split(chunk: ChunkId) -> (usize, usize) {
        let id = chunk.index();
        (id >> PAGE_BITS, id & (PAGE - 1))
    }

    #[inline]
    pub fn get(&self, chunk: ChunkId) -> Option<&T> {
        let (page, slot) = Self::split(chunk);
        self.pages.get(page)?.as_ref()?.slots[slot].as_ref()
    }

    #[inline]
    pub fn contains(&self, chunk: ChunkId) -> bool {
        self.get(chunk).is_some()
    }

    /// Puts a value in the chunk's slot; returns the value it replaced.
    #[inline]
    pub fn insert(&mut self, chunk: ChunkId, value: T) -> Option<T> {
        let (page, slot) = Self::split(chunk);
        if page >= self.pages.len() {
            self.pages.resize_with(page + 1, || None);
        }
        let spare = &mut self.spare;
        let page = self.pages[page].get_or_insert_with(|| spare.pop().unwrap_or_else(Page::new));
        let old = page.slots[slot].replace(value);
        if old.is_none() {
            page.used += 1;
        }
        old
    }

    /// Takes the chunk's value out; puts its page back when that was the page's last.
    #[inline]
    pub fn remove(&mut self, chunk: ChunkId) -> Option<T> {
        let (index, slot) = Self::split(chunk);
        let page = self.pages.get_mut(index)?.as_mut()?;
        let old = page.slots[slot].take()?;
        page.used -= 1;
        if page.used == 0 {
            if let Some(empty) = self.pages[index].take() {
                self.spare.push(empty);
            }
        }
        Some(old)
    }

    /// Drops every value (and every page).
    pub fn clear(&mut self) {
        self.pages.clear();
        self.spare.clear();
    }

    /// Pages holding a chunk, and pages kept for reuse.
    #[cfg(test)]
    fn pages(&self) -> (usize, usize) {
        (self.pages.iter().flatten().count(), self.spare.len())
    }
}

/// The chunks one worker holds.
pub struct ChunkStore<K: ChunkKernel> {
    memory: ChunkSlots<Arc<K::Value>>,
    /// Chunks with a spill file (they may be in memory too, after a read-back).
    spilled: ChunkMap<PathBuf>,
    /// Where this worker's spill files go; `None` when the run has no memory limit.
    spill_dir: Option<PathBuf>,
    /// Prefixes this worker's file names, so two workers never share a file.
    owner: u32,
    bytes: u64,
    peak_bytes: u64,
}

impl<K: ChunkKernel> ChunkStore<K> {
    pub fn new(owner: u32, spill_dir: Option<&Path>) -> Self {
        ChunkStore {
            memory: ChunkSlots::default(),
            spilled: ChunkMap::default(),
            spill_dir: spill_dir.map(Path::to_path_buf),
            owner,
            bytes: 0,
            peak_bytes: 0,
        }
    }

    #[inline]
    pub fn get(&self, chunk: ChunkId) -> Option<&Arc<K::Value>> {
        self.memory.get(chunk)
    }

    #[inline]
    pub fn in_memory(&self, chunk: ChunkId) -> bool {
        self.memory.contains(chunk)
    }

    #[inline]
    pub fn is_spilled(&self, chunk: ChunkId) -> bool {
        !self.spilled.is_empty() && self.spilled.contains_key(&chunk)
    }

    #[inline]
    pub fn insert(&mut self, chunk: ChunkId, value: Arc<K::Value>) {
        let bytes = K::nbytes(&value) as u64;
        if let Some(old) = self.memory.insert(chunk, value) {
            self.bytes -= K::nbytes(&old) as u64;
        }
        self.bytes += bytes;
        self.peak_bytes = self.peak_bytes.max(self.bytes);
    }

    /// Drops the in-memory copy, keeping any spill file.
    #[inline]
    pub fn evict(&mut self, chunk: ChunkId) {
        if let Some(old) = self.memory.remove(chunk) {
            self.bytes -= K::nbytes(&old) as u64;
        }
    }

    /// Forgets the chunk entirely: memory and spill file.
    #[inline]
    pub fn remove(&mut self, chunk: ChunkId) {
        self.evict(chunk);
        if self.spilled.is_empty() {
            return;
        }
        if let Some(path) = self.spilled.remove(&chunk) {
            // A file that cannot be removed is only litter: the spill directory
            // goes away at the end of the run.
            let _ = std::fs::remove_file(path);
        }
    }

    /// Moves a chunk from memory to its spill file (writing the file unless it
    /// already exists); returns the bytes written.
    pub fn spill(&mut self, chunk: ChunkId) -> Result<u64, SpillError> {
        let mut written = 0;
        if !self.is_spilled(chunk) {
            let Some(value) = self.memory.get(chunk) else {
                return Err(SpillError::Missing(format!(
                    "chunk {chunk} is neither in memory nor on disk"
                )));
            };
            let path = self.spill_path(chunk)?;
            written = write_spill_file::<K>(&path, value).map_err(|source| {
                let _ = std::fs::remove_file(&path);
                SpillError::Write {
                    chunk,
                    path: path.clone(),
                    source,
                }
            })?;
            self.spilled.insert(chunk, path);
        }
        self.evict(chunk);
        Ok(written)
    }

    /// Reads a spilled chunk without keeping it in memory (to serve a peer).
    pub fn read_spilled(&self, chunk: ChunkId) -> Result<Arc<K::Value>, SpillError> {
        let path = self
            .spilled
            .get(&chunk)
            .ok_or_else(|| SpillError::Missing(format!("chunk {chunk} was not spilled")))?;
        read_spilled_chunk::<K>(chunk, path).map(Arc::new)
    }

    /// Reads a spilled chunk back into memory (its file stays, so spilling it again
    /// costs nothing).
    pub fn load(&mut self, chunk: ChunkId) -> Result<(), SpillError> {
        let value = self.read_spilled(chunk)?;
        self.insert(chunk, value);
        Ok(())
    }

    /// Loses everything (the worker was killed).
    pub fn clear(&mut self) {
        let chunks: Vec<ChunkId> = self.spilled.keys().copied().collect();
        for chunk in chunks {
            self.remove(chunk);
        }
        self.memory.clear();
        self.bytes = 0;
    }

    pub fn peak_bytes(&self) -> u64 {
        self.peak_bytes
    }

    /// Bytes of the chunks held in memory now.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    fn spill_path(&self, chunk: ChunkId) -> Result<PathBuf, SpillError> {
        let dir = self.spill_dir.as_ref().ok_or_else(|| {
            SpillError::Missing(format!(
                "asked to spill chunk {chunk} without a spill directory"
            ))
        })?;
        Ok(dir.join(format!("w{}-{chunk}.chunk", self.owner)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_hold_values_by_id_across_pages() {
        let mut slots = ChunkSlots::default();
        let ids = [0u32, 1, 255, 256, 1000, 70_000];
        for &id in &ids {
            assert_eq!(slots.insert(ChunkId(id), id * 2), None);
        }
        assert_eq!(slots.insert(ChunkId(1), 7), Some(2));
        assert_eq!(slots.get(ChunkId(1)), Some(&7));
        assert_eq!(slots.get(ChunkId(70_000)), Some(&140_000));
        assert!(!slots.contains(ChunkId(2)));
        // Beyond every page allocated so far.
        assert!(!slots.contains(ChunkId(5_000_000)));
        assert_eq!(slots.remove(ChunkId(5_000_000)), None);
        for &id in &ids {
            assert!(slots.remove(ChunkId(id)).is_some());
            assert!(!slots.contains(ChunkId(id)));
        }
        // Every page emptied was put back (four pages: ids 0-255, 256-511, 768-1023
        // and 69,888-70,143), and is taken again before a new one is made.
        assert_eq!(slots.pages(), (0, 4));
        assert_eq!(slots.insert(ChunkId(300), 1), None);
        assert_eq!(slots.pages(), (1, 3));
        for id in (0..4096).step_by(97) {
            slots.insert(ChunkId(id), id);
            slots.remove(ChunkId(id));
        }
        // Filling and emptying pages one after another makes none beyond the peak.
        assert_eq!(slots.pages(), (1, 3));
        slots.clear();
        assert_eq!(slots.get(ChunkId(300)), None);
    }
}
