//! A worker's chunk store, and the fast maps keyed by ids that the store and the
//! coordinator use. Memory is proportional to the chunks held, not to the plan size,
//! which is what spilling will need.

use crate::plan::ChunkId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
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

/// The chunks one worker holds.
pub struct ChunkStore<V> {
    chunks: ChunkMap<Arc<V>>,
}

impl<V> Default for ChunkStore<V> {
    fn default() -> Self {
        ChunkStore {
            chunks: ChunkMap::default(),
        }
    }
}

impl<V> ChunkStore<V> {
    pub fn get(&self, chunk: ChunkId) -> Option<&Arc<V>> {
        self.chunks.get(&chunk)
    }

    pub fn contains(&self, chunk: ChunkId) -> bool {
        self.chunks.contains_key(&chunk)
    }

    pub fn insert(&mut self, chunk: ChunkId, value: Arc<V>) {
        self.chunks.insert(chunk, value);
    }

    pub fn remove(&mut self, chunk: ChunkId) {
        self.chunks.remove(&chunk);
    }
}
