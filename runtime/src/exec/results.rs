//! The result chunks the coordinator keeps for the caller. Under a memory limit
//! they are the first to be spilled (they are needed only at the end), into the
//! run's spill directory, and read back when the run hands them over.

use super::store::{read_spilled_chunk, write_spill_file, ChunkMap, SpillError};
use super::ChunkKernel;
use crate::plan::ChunkId;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

enum Held<V> {
    Memory(Arc<V>),
    Disk(PathBuf),
}

pub struct ResultStore<K: ChunkKernel> {
    held: ChunkMap<Held<K::Value>>,
}

impl<K: ChunkKernel> Default for ResultStore<K> {
    fn default() -> Self {
        ResultStore {
            held: ChunkMap::default(),
        }
    }
}

impl<K: ChunkKernel> ResultStore<K> {
    /// Keeps the first value reported for a chunk (a recomputed one is identical).
    pub fn insert(&mut self, chunk: ChunkId, value: Arc<K::Value>) {
        self.held.entry(chunk).or_insert(Held::Memory(value));
    }

    #[inline]
    pub fn in_memory(&self, chunk: ChunkId) -> bool {
        matches!(self.held.get(&chunk), Some(Held::Memory(_)))
    }

    /// Writes the chunk to a file in `dir` and drops it from memory; returns the
    /// bytes written.
    pub fn spill(&mut self, chunk: ChunkId, dir: &Path) -> io::Result<u64> {
        let Some(Held::Memory(value)) = self.held.get(&chunk) else {
            return Ok(0);
        };
        let path = dir.join(format!("result-{chunk}.chunk"));
        let written = write_spill_file::<K>(&path, value)?;
        self.held.insert(chunk, Held::Disk(path));
        Ok(written)
    }

    /// The value, read back from disk if it was spilled.
    pub fn take(&mut self, chunk: ChunkId) -> Result<Arc<K::Value>, SpillError> {
        match self.held.get(&chunk) {
            Some(Held::Memory(value)) => Ok(Arc::clone(value)),
            Some(Held::Disk(path)) => {
                let value = read_spilled_chunk::<K>(chunk, path).map(Arc::new)?;
                // Kept in memory: the caller may list the same result twice.
                self.held.insert(chunk, Held::Memory(Arc::clone(&value)));
                Ok(value)
            }
            None => Err(SpillError::Missing(format!(
                "result chunk {chunk} was never reported"
            ))),
        }
    }
}
