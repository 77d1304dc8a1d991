//! A worker's chunk store (values in memory, plus the chunks it spilled to files),
//! and the fast maps keyed by ids that the store and the coordinator use. The store
//! counts the bytes it holds in memory, so a worker knows its own footprint; memory
//! is proportional to the chunks held, not to the plan size.

use super::ChunkKernel;
use crate::plan::ChunkId;
use std::collections::HashMap;
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

/// The chunks one worker holds.
pub struct ChunkStore<K: ChunkKernel> {
    memory: ChunkMap<Arc<K::Value>>,
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
            memory: ChunkMap::default(),
            spilled: ChunkMap::default(),
            spill_dir: spill_dir.map(Path::to_path_buf),
            owner,
            bytes: 0,
            peak_bytes: 0,
        }
    }

    #[inline]
    pub fn get(&self, chunk: ChunkId) -> Option<&Arc<K::Value>> {
        self.memory.get(&chunk)
    }

    #[inline]
    pub fn in_memory(&self, chunk: ChunkId) -> bool {
        self.memory.contains_key(&chunk)
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
        if let Some(old) = self.memory.remove(&chunk) {
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
    pub fn spill(&mut self, chunk: ChunkId) -> Result<u64, String> {
        let mut written = 0;
        if !self.is_spilled(chunk) {
            let Some(value) = self.memory.get(&chunk) else {
                return Err(format!(
                    "internal error: chunk {chunk} is neither in memory nor on disk"
                ));
            };
            let path = self.spill_path(chunk)?;
            written = write_spill_file::<K>(&path, value).map_err(|error| {
                let _ = std::fs::remove_file(&path);
                format!("cannot spill chunk {chunk} to {}: {error}", path.display())
            })?;
            self.spilled.insert(chunk, path);
        }
        self.evict(chunk);
        Ok(written)
    }

    /// Reads a spilled chunk without keeping it in memory (to serve a peer).
    pub fn read_spilled(&self, chunk: ChunkId) -> Result<Arc<K::Value>, String> {
        let path = self
            .spilled
            .get(&chunk)
            .ok_or_else(|| format!("internal error: chunk {chunk} was not spilled"))?;
        read_spill_file::<K>(path).map(Arc::new).map_err(|error| {
            format!(
                "cannot read spilled chunk {chunk} from {}: {error}",
                path.display()
            )
        })
    }

    /// Reads a spilled chunk back into memory (its file stays, so spilling it again
    /// costs nothing).
    pub fn load(&mut self, chunk: ChunkId) -> Result<(), String> {
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

    fn spill_path(&self, chunk: ChunkId) -> Result<PathBuf, String> {
        let dir = self.spill_dir.as_ref().ok_or_else(|| {
            format!("internal error: asked to spill chunk {chunk} without a spill directory")
        })?;
        Ok(dir.join(format!("w{}-{chunk}.chunk", self.owner)))
    }
}
