//! The coordinator's map of where each chunk lives: its home (the worker that
//! produced it, which keeps it in memory or in a spill file until it is freed) plus
//! the workers holding copies in memory. Copies are learnt from completion reports,
//! so the map may lag behind the workers but never claims a copy that is not there.

use super::store::ChunkMap;
use crate::plan::ChunkId;

const NOWHERE: u32 = u32::MAX;

pub struct ChunkLocations {
    home: Vec<u32>,
    home_in_memory: Vec<bool>,
    /// Whether the home has a spill file of the chunk.
    home_on_disk: Vec<bool>,
    bytes: Vec<u64>,
    /// Only chunks that were copied have an entry, so this stays small.
    replicas: ChunkMap<Vec<u32>>,
    /// Per chunk: whether `replicas` has an entry, so the common case skips the map.
    copied: Vec<bool>,
}

/// What spilling a chunk takes: a file written by its home (unless it has one)
/// and in-memory copies dropped.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SpillAction {
    pub write_on: Option<u32>,
    pub evict_on: Vec<u32>,
}

impl ChunkLocations {
    pub fn new(num_chunks: u32) -> Self {
        let n = num_chunks as usize;
        ChunkLocations {
            home: vec![NOWHERE; n],
            home_in_memory: vec![false; n],
            home_on_disk: vec![false; n],
            bytes: vec![0; n],
            replicas: ChunkMap::default(),
            copied: vec![false; n],
        }
    }

    /// `worker` produced the chunk; `stored` tells whether it kept it (a chunk
    /// without consumers is not kept, but its size still counts while it is a result).
    #[inline]
    pub fn produced(&mut self, chunk: ChunkId, worker: u32, bytes: u64, stored: bool) {
        let i = chunk.index();
        self.bytes[i] = bytes;
        if stored {
            self.home[i] = worker;
            self.home_in_memory[i] = true;
            self.home_on_disk[i] = false;
        }
    }

    /// `worker` now holds the chunk in memory too (a copy, or its home read it back).
    pub fn copied(&mut self, chunk: ChunkId, worker: u32) {
        let i = chunk.index();
        if self.home[i] == worker {
            self.home_in_memory[i] = true;
            return;
        }
        let replicas = self.replicas.entry(chunk).or_default();
        if !replicas.contains(&worker) {
            replicas.push(worker);
        }
        self.copied[i] = true;
    }

    #[inline]
    fn replicas(&self, chunk: ChunkId) -> &[u32] {
        if !self.copied[chunk.index()] {
            return &[];
        }
        self.replicas.get(&chunk).map_or(&[], Vec::as_slice)
    }

    #[inline]
    pub fn bytes(&self, chunk: ChunkId) -> u64 {
        self.bytes[chunk.index()]
    }

    /// Whether some worker holds the chunk in memory.
    #[inline]
    pub fn in_memory(&self, chunk: ChunkId) -> bool {
        self.home_in_memory[chunk.index()] || !self.replicas(chunk).is_empty()
    }

    /// The worker `worker` should get `chunk` from: itself when it holds a copy.
    #[inline]
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

    /// Moves the chunk out of memory everywhere, keeping (or writing) a file at home.
    pub fn spill(&mut self, chunk: ChunkId) -> SpillAction {
        let i = chunk.index();
        let mut action = SpillAction::default();
        if self.home[i] != NOWHERE && self.home_in_memory[i] {
            if self.home_on_disk[i] {
                action.evict_on.push(self.home[i]);
            } else {
                action.write_on = Some(self.home[i]);
            }
        }
        self.home_in_memory[i] = false;
        self.home_on_disk[i] = self.home[i] != NOWHERE;
        if std::mem::take(&mut self.copied[i]) {
            action
                .evict_on
                .extend(self.replicas.remove(&chunk).into_iter().flatten());
        }
        action
    }

    /// Forgets the chunk and calls `free_on` for every worker that holds it.
    pub fn remove(&mut self, chunk: ChunkId, mut free_on: impl FnMut(u32)) {
        let i = chunk.index();
        let home = std::mem::replace(&mut self.home[i], NOWHERE);
        self.home_in_memory[i] = false;
        self.home_on_disk[i] = false;
        if home != NOWHERE {
            free_on(home);
        }
        if std::mem::take(&mut self.copied[i]) {
            for holder in self.replicas.remove(&chunk).into_iter().flatten() {
                free_on(holder);
            }
        }
    }

    /// Calls `each` with every worker holding `chunk` in memory.
    pub fn for_each_memory_holder(&self, chunk: ChunkId, mut each: impl FnMut(u32)) {
        let i = chunk.index();
        if self.home[i] != NOWHERE && self.home_in_memory[i] {
            each(self.home[i]);
        }
        for &holder in self.replicas(chunk) {
            each(holder);
        }
    }

    /// Whether `worker` holds the chunk in any form.
    pub fn held_by(&self, chunk: ChunkId, worker: u32) -> bool {
        self.home[chunk.index()] == worker || self.replicas(chunk).contains(&worker)
    }

    /// `worker` is gone with its store: forget its copies, promoting a surviving
    /// copy to home. Returns whether any worker still holds the chunk.
    pub fn drop_worker(&mut self, chunk: ChunkId, worker: u32) -> bool {
        let i = chunk.index();
        let mut survivors = Vec::new();
        if std::mem::take(&mut self.copied[i]) {
            survivors = self.replicas.remove(&chunk).unwrap_or_default();
            survivors.retain(|&holder| holder != worker);
        }
        if self.home[i] == worker {
            match survivors.pop() {
                Some(new_home) => {
                    self.home[i] = new_home;
                    self.home_in_memory[i] = true;
                    self.home_on_disk[i] = false;
                }
                None => {
                    self.home[i] = NOWHERE;
                    self.home_in_memory[i] = false;
                    self.home_on_disk[i] = false;
                }
            }
        }
        if !survivors.is_empty() {
            self.replicas.insert(chunk, survivors);
            self.copied[i] = true;
        }
        self.home[i] != NOWHERE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilling_writes_once_and_evicts_copies() {
        let mut locations = ChunkLocations::new(1);
        let c = ChunkId(0);
        locations.produced(c, 1, 80, true);
        locations.copied(c, 0);
        assert!(locations.in_memory(c));
        let action = locations.spill(c);
        assert_eq!(action.write_on, Some(1));
        assert_eq!(action.evict_on, [0]);
        assert!(!locations.in_memory(c));
        assert_eq!(locations.source_for(c, 0), 1);
        // Read back by its home, then spilled again: the file is still there.
        locations.copied(c, 1);
        assert!(locations.in_memory(c));
        let action = locations.spill(c);
        assert_eq!(action.write_on, None);
        assert_eq!(action.evict_on, [1]);
    }

    #[test]
    fn a_dead_home_hands_over_to_a_copy() {
        let mut locations = ChunkLocations::new(2);
        let (shared, alone) = (ChunkId(0), ChunkId(1));
        locations.produced(shared, 1, 8, true);
        locations.copied(shared, 2);
        locations.produced(alone, 1, 8, true);
        assert!(locations.drop_worker(shared, 1));
        assert_eq!(locations.source_for(shared, 0), 2);
        assert!(locations.in_memory(shared));
        assert!(!locations.drop_worker(alone, 1));
        assert!(!locations.in_memory(alone));
        let mut freed = Vec::new();
        locations.remove(shared, |w| freed.push(w));
        assert_eq!(freed, [2]);
    }
}
