//! The coordinator's map of where each chunk lives: its home (the worker that
//! produced it, which keeps it in memory or in a spill file until it is freed) plus
//! the workers holding copies in memory. Copies are learnt from completion reports,
//! so the map may lag behind the workers but never claims a copy that is not there.
//!
//! Each chunk has one record ([`Place`]), which also carries the coordinator's own
//! state of the chunk (`S`): the coordinator visits a chunk's status, consumers and
//! place together, so they share a cache line instead of living in a table each.

use super::store::ChunkMap;
use crate::plan::ChunkId;

const NOWHERE: u32 = u32::MAX;

/// Everything known of one chunk's whereabouts, and the caller's state of it.
#[derive(Clone, Copy, Debug)]
struct Place<S> {
    bytes: u64,
    home: u32,
    home_in_memory: bool,
    /// Whether the home has a spill file of the chunk.
    home_on_disk: bool,
    /// Whether `replicas` has an entry, so the common case skips the map.
    copied: bool,
    state: S,
}

pub struct ChunkLocations<S> {
    places: Vec<Place<S>>,
    /// Only chunks that were copied have an entry, so this stays small.
    replicas: ChunkMap<Vec<u32>>,
}

/// What spilling a chunk takes: a file written by its home (unless it has one)
/// and in-memory copies dropped.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SpillAction {
    pub write_on: Option<u32>,
    pub evict_on: Vec<u32>,
}

impl<S> ChunkLocations<S> {
    /// Chunks `0..` with the states `states` gives, held nowhere yet.
    pub fn new(states: impl ExactSizeIterator<Item = S>) -> Self {
        let mut places = Vec::with_capacity(states.len());
        places.extend(states.map(|state| Place {
            bytes: 0,
            home: NOWHERE,
            home_in_memory: false,
            home_on_disk: false,
            copied: false,
            state,
        }));
        ChunkLocations {
            places,
            replicas: ChunkMap::default(),
        }
    }

    /// The caller's state of the chunk.
    #[inline]
    pub fn state(&self, chunk: ChunkId) -> &S {
        &self.places[chunk.index()].state
    }

    #[inline]
    pub fn state_mut(&mut self, chunk: ChunkId) -> &mut S {
        &mut self.places[chunk.index()].state
    }

    /// `worker` produced the chunk; `stored` tells whether it kept it (a chunk
    /// without consumers is not kept, but its size still counts while it is a result).
    #[inline]
    pub fn produced(&mut self, chunk: ChunkId, worker: u32, bytes: u64, stored: bool) {
        let place = &mut self.places[chunk.index()];
        place.bytes = bytes;
        if stored {
            place.home = worker;
            place.home_in_memory = true;
            place.home_on_disk = false;
        }
    }

    /// `worker` now holds the chunk in memory too (a copy, or its home read it back).
    pub fn copied(&mut self, chunk: ChunkId, worker: u32) {
        let place = &mut self.places[chunk.index()];
        if place.home == worker {
            place.home_in_memory = true;
            return;
        }
        place.copied = true;
        let replicas = self.replicas.entry(chunk).or_default();
        if !replicas.contains(&worker) {
            replicas.push(worker);
        }
    }

    #[inline]
    fn replicas(&self, chunk: ChunkId) -> &[u32] {
        if !self.places[chunk.index()].copied {
            return &[];
        }
        self.replicas.get(&chunk).map_or(&[], Vec::as_slice)
    }

    #[inline]
    pub fn bytes(&self, chunk: ChunkId) -> u64 {
        self.places[chunk.index()].bytes
    }

    /// Whether some worker holds the chunk in memory.
    #[inline]
    pub fn in_memory(&self, chunk: ChunkId) -> bool {
        let place = &self.places[chunk.index()];
        place.home_in_memory || (place.copied && !self.replicas(chunk).is_empty())
    }

    /// The worker `worker` should get `chunk` from: itself when it holds a copy.
    #[inline]
    pub fn source_for(&self, chunk: ChunkId, worker: u32) -> u32 {
        let place = &self.places[chunk.index()];
        if place.home != worker && place.copied && self.replicas(chunk).contains(&worker) {
            worker
        } else {
            place.home
        }
    }

    /// Adds the bytes of `chunks` to the entry of every worker holding them.
    pub fn add_bytes_by_worker(&self, chunks: &[ChunkId], bytes_on: &mut [u64]) {
        for &chunk in chunks {
            let place = &self.places[chunk.index()];
            if let Some(slot) = bytes_on.get_mut(place.home as usize) {
                *slot += place.bytes;
            }
            for &holder in self.replicas(chunk) {
                bytes_on[holder as usize] += place.bytes;
            }
        }
    }

    /// Moves the chunk out of memory everywhere, keeping (or writing) a file at home.
    pub fn spill(&mut self, chunk: ChunkId) -> SpillAction {
        let place = &mut self.places[chunk.index()];
        let mut action = SpillAction::default();
        if place.home != NOWHERE && place.home_in_memory {
            if place.home_on_disk {
                action.evict_on.push(place.home);
            } else {
                action.write_on = Some(place.home);
            }
        }
        place.home_in_memory = false;
        place.home_on_disk = place.home != NOWHERE;
        if std::mem::take(&mut place.copied) {
            action
                .evict_on
                .extend(self.replicas.remove(&chunk).into_iter().flatten());
        }
        action
    }

    /// Forgets the chunk and calls `free_on` for every worker that holds it.
    #[inline]
    pub fn remove(&mut self, chunk: ChunkId, mut free_on: impl FnMut(u32)) {
        let place = &mut self.places[chunk.index()];
        let home = std::mem::replace(&mut place.home, NOWHERE);
        place.home_in_memory = false;
        place.home_on_disk = false;
        let copied = std::mem::take(&mut place.copied);
        if home != NOWHERE {
            free_on(home);
        }
        if copied {
            for holder in self.replicas.remove(&chunk).into_iter().flatten() {
                free_on(holder);
            }
        }
    }

    /// Calls `each` with every worker holding `chunk` in memory.
    pub fn for_each_memory_holder(&self, chunk: ChunkId, mut each: impl FnMut(u32)) {
        let place = &self.places[chunk.index()];
        if place.home != NOWHERE && place.home_in_memory {
            each(place.home);
        }
        for &holder in self.replicas(chunk) {
            each(holder);
        }
    }

    /// Whether `worker` holds the chunk in any form.
    pub fn held_by(&self, chunk: ChunkId, worker: u32) -> bool {
        self.places[chunk.index()].home == worker || self.replicas(chunk).contains(&worker)
    }

    /// `worker` is gone with its store: forget its copies, promoting a surviving
    /// copy to home. Returns whether any worker still holds the chunk.
    pub fn drop_worker(&mut self, chunk: ChunkId, worker: u32) -> bool {
        let place = &mut self.places[chunk.index()];
        let mut survivors = Vec::new();
        if std::mem::take(&mut place.copied) {
            survivors = self.replicas.remove(&chunk).unwrap_or_default();
            survivors.retain(|&holder| holder != worker);
        }
        if place.home == worker {
            match survivors.pop() {
                Some(new_home) => {
                    place.home = new_home;
                    place.home_in_memory = true;
                    place.home_on_disk = false;
                }
                None => {
                    place.home = NOWHERE;
                    place.home_in_memory = false;
                    place.home_on_disk = false;
                }
            }
        }
        if !survivors.is_empty() {
            self.replicas.insert(chunk, survivors);
            place.copied = true;
        }
        place.home != NOWHERE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilling_writes_once_and_evicts_copies() {
        let mut locations = ChunkLocations::new([()].into_iter());
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
        let mut locations = ChunkLocations::new([(), ()].into_iter());
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
