//! The coordinator's map of where each chunk lives: the worker that produced it (its
//! home, which keeps it until it is freed) plus the workers that copied it.

use super::store::ChunkMap;
use crate::plan::ChunkId;

const NOT_PRODUCED: u32 = u32::MAX;

pub struct ChunkLocations {
    home: Vec<u32>,
    bytes: Vec<u64>,
    /// Only chunks that were copied have an entry, so this stays small.
    replicas: ChunkMap<Vec<u32>>,
    /// Per chunk: whether `replicas` has an entry, so the common case skips the map.
    copied: Vec<bool>,
}

impl ChunkLocations {
    pub fn new(num_chunks: u32) -> Self {
        ChunkLocations {
            home: vec![NOT_PRODUCED; num_chunks as usize],
            bytes: vec![0; num_chunks as usize],
            replicas: ChunkMap::default(),
            copied: vec![false; num_chunks as usize],
        }
    }

    pub fn produced(&mut self, chunk: ChunkId, worker: u32, bytes: u64) {
        self.home[chunk.index()] = worker;
        self.bytes[chunk.index()] = bytes;
    }

    pub fn copied(&mut self, chunk: ChunkId, worker: u32) {
        self.replicas.entry(chunk).or_default().push(worker);
        self.copied[chunk.index()] = true;
    }

    fn replicas(&self, chunk: ChunkId) -> &[u32] {
        if !self.copied[chunk.index()] {
            return &[];
        }
        self.replicas.get(&chunk).map_or(&[], Vec::as_slice)
    }

    pub fn bytes(&self, chunk: ChunkId) -> u64 {
        self.bytes[chunk.index()]
    }

    /// The worker `worker` should fetch `chunk` from: itself when it holds a copy.
    pub fn source_for(&self, chunk: ChunkId, worker: u32) -> u32 {
        let home = self.home[chunk.index()];
        if home != worker && self.replicas(chunk).contains(&worker) {
            worker
        } else {
            home
        }
    }

    /// Adds the bytes of `chunks` to the entry of every worker holding them.
    pub fn add_bytes_by_worker(&self, chunks: &[ChunkId], bytes_on: &mut [u64]) {
        for &chunk in chunks {
            let bytes = self.bytes[chunk.index()];
            if let Some(slot) = bytes_on.get_mut(self.home[chunk.index()] as usize) {
                *slot += bytes;
            }
            for &holder in self.replicas(chunk) {
                bytes_on[holder as usize] += bytes;
            }
        }
    }

    /// Forgets the chunk and calls `free_on` for every worker that holds it.
    pub fn remove(&mut self, chunk: ChunkId, mut free_on: impl FnMut(u32)) {
        let home = std::mem::replace(&mut self.home[chunk.index()], NOT_PRODUCED);
        if home != NOT_PRODUCED {
            free_on(home);
        }
        if std::mem::take(&mut self.copied[chunk.index()]) {
            for holder in self.replicas.remove(&chunk).into_iter().flatten() {
                free_on(holder);
            }
        }
    }
}
