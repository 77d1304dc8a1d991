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
}

impl ChunkLocations {
    pub fn new(num_chunks: u32) -> Self {
        ChunkLocations {
            home: vec![NOT_PRODUCED; num_chunks as usize],
            bytes: vec![0; num_chunks as usize],
            replicas: ChunkMap::default(),
        }
    }

    pub fn produced(&mut self, chunk: ChunkId, worker: u32, bytes: u64) {
        self.home[chunk.index()] = worker;
        self.bytes[chunk.index()] = bytes;
    }

    pub fn copied(&mut self, chunk: ChunkId, worker: u32) {
        self.replicas.entry(chunk).or_default().push(worker);
    }

    pub fn bytes(&self, chunk: ChunkId) -> u64 {
        self.bytes[chunk.index()]
    }

    /// The worker `worker` should fetch `chunk` from: itself when it holds a copy.
    pub fn source_for(&self, chunk: ChunkId, worker: u32) -> u32 {
        let home = self.home[chunk.index()];
        let copied_here = || {
            self.replicas
                .get(&chunk)
                .is_some_and(|holders| holders.contains(&worker))
        };
        if home != worker && copied_here() {
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
            for &holder in self.replicas.get(&chunk).into_iter().flatten() {
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
        for holder in self.replicas.remove(&chunk).into_iter().flatten() {
            free_on(holder);
        }
    }
}
