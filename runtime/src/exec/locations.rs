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

/// [`Place::copy`] when no worker besides the home holds a copy.
const NO_COPY: u16 = u16::MAX;

/// [`Place::flags`]: the home holds the chunk in memory.
const HOME_IN_MEMORY: u8 = 1;
/// The home has a spill file of the chunk.
const HOME_ON_DISK: u8 = 2;
/// `more_copies` has an entry for the chunk, so the common case skips the map.
const MORE_COPIES: u8 = 4;

/// Everything known of one chunk's whereabouts, and the caller's state of it
/// (24 bytes with a coordinator's 8-byte state).
#[derive(Clone, Copy, Debug)]
struct Place<S> {
    bytes: u64,
    home: u32,
    /// The first worker to hold a copy in memory besides the home, kept inline: a
    /// chunk read on another worker (half of a reduction tree's leaves, dealt out
    /// round-robin) then costs no map entry and no allocation. Further copies, and
    /// workers past `u16` ids, are in [`ChunkLocations::more_copies`].
    copy: u16,
    flags: u8,
    state: S,
}

impl<S> Place<S> {
    #[inline]
    fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    #[inline]
    fn set(&mut self, flag: u8, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }

    /// The inline copy, if any.
    #[inline]
    fn first_copy(&self) -> Option<u32> {
        (self.copy != NO_COPY).then_some(u32::from(self.copy))
    }
}

pub struct ChunkLocations<S> {
    places: Vec<Place<S>>,
    /// Copies beyond a chunk's inline one: only chunks copied to a second worker
    /// have an entry, so this stays small.
    more_copies: ChunkMap<Vec<u32>>,
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
            copy: NO_COPY,
            flags: 0,
            state,
        }));
        ChunkLocations {
            places,
            more_copies: ChunkMap::default(),
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
            place.set(HOME_IN_MEMORY, true);
            place.set(HOME_ON_DISK, false);
        }
    }

    /// `worker` now holds the chunk in memory too (a copy, or its home read it back).
    pub fn copied(&mut self, chunk: ChunkId, worker: u32) {
        let place = &mut self.places[chunk.index()];
        if place.home == worker {
            place.set(HOME_IN_MEMORY, true);
            return;
        }
        if place.first_copy() == Some(worker) {
            return;
        }
        if place.copy == NO_COPY && worker < u32::from(NO_COPY) {
            place.copy = worker as u16;
            return;
        }
        place.set(MORE_COPIES, true);
        let more = self.more_copies.entry(chunk).or_default();
        if !more.contains(&worker) {
            more.push(worker);
        }
    }

    /// The copies beyond the inline one.
    #[inline]
    fn more_copies(&self, chunk: ChunkId) -> &[u32] {
        if !self.places[chunk.index()].has(MORE_COPIES) {
            return &[];
        }
        self.more_copies.get(&chunk).map_or(&[], Vec::as_slice)
    }

    /// Every worker holding a copy in memory besides the home.
    #[inline]
    fn copies(&self, chunk: ChunkId) -> impl Iterator<Item = u32> + '_ {
        let first = self.places[chunk.index()].first_copy();
        first
            .into_iter()
            .chain(self.more_copies(chunk).iter().copied())
    }

    /// Forgets every copy of the chunk besides the home's, handing them back.
    fn take_copies(&mut self, chunk: ChunkId) -> Vec<u32> {
        let place = &mut self.places[chunk.index()];
        let first = std::mem::replace(&mut place.copy, NO_COPY);
        let more = place.has(MORE_COPIES);
        place.set(MORE_COPIES, false);
        let mut copies = Vec::new();
        if first != NO_COPY {
            copies.push(u32::from(first));
        }
        if more {
            copies.extend(self.more_copies.remove(&chunk).into_iter().flatten());
        }
        copies
    }

    #[inline]
    pub fn bytes(&self, chunk: ChunkId) -> u64 {
        self.places[chunk.index()].bytes
    }

    /// Whether some worker holds the chunk in memory.
    #[inline]
    pub fn in_memory(&self, chunk: ChunkId) -> bool {
        let place = &self.places[chunk.index()];
        place.has(HOME_IN_MEMORY) || place.copy != NO_COPY || !self.more_copies(chunk).is_empty()
    }

    /// The worker `worker` should get `chunk` from: itself when it holds a copy.
    #[inline]
    pub fn source_for(&self, chunk: ChunkId, worker: u32) -> u32 {
        let place = &self.places[chunk.index()];
        let own_copy = place.home != worker
            && (place.first_copy() == Some(worker) || self.more_copies(chunk).contains(&worker));
        if own_copy {
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
            for holder in self.copies(chunk) {
                bytes_on[holder as usize] += place.bytes;
            }
        }
    }

    /// Moves the chunk out of memory everywhere, keeping (or writing) a file at home.
    pub fn spill(&mut self, chunk: ChunkId) -> SpillAction {
        let place = &mut self.places[chunk.index()];
        let mut action = SpillAction::default();
        if place.home != NOWHERE && place.has(HOME_IN_MEMORY) {
            if place.has(HOME_ON_DISK) {
                action.evict_on.push(place.home);
            } else {
                action.write_on = Some(place.home);
            }
        }
        place.set(HOME_IN_MEMORY, false);
        place.set(HOME_ON_DISK, place.home != NOWHERE);
        action.evict_on.extend(self.take_copies(chunk));
        action
    }

    /// Forgets the chunk and calls `free_on` for every worker that holds it.
    #[inline]
    pub fn remove(&mut self, chunk: ChunkId, mut free_on: impl FnMut(u32)) {
        let place = &mut self.places[chunk.index()];
        let home = std::mem::replace(&mut place.home, NOWHERE);
        place.set(HOME_IN_MEMORY | HOME_ON_DISK, false);
        let first = std::mem::replace(&mut place.copy, NO_COPY);
        let more = place.has(MORE_COPIES);
        place.set(MORE_COPIES, false);
        if home != NOWHERE {
            free_on(home);
        }
        if first != NO_COPY {
            free_on(u32::from(first));
        }
        if more {
            for holder in self.more_copies.remove(&chunk).into_iter().flatten() {
                free_on(holder);
            }
        }
    }

    /// Calls `each` with every worker holding `chunk` in memory.
    pub fn for_each_memory_holder(&self, chunk: ChunkId, mut each: impl FnMut(u32)) {
        let place = &self.places[chunk.index()];
        if place.home != NOWHERE && place.has(HOME_IN_MEMORY) {
            each(place.home);
        }
        for holder in self.copies(chunk) {
            each(holder);
        }
    }

    /// Whether `worker` holds the chunk in any form.
    pub fn held_by(&self, chunk: ChunkId, worker: u32) -> bool {
        self.places[chunk.index()].home == worker || self.copies(chunk).any(|w| w == worker)
    }

    /// `worker` is gone with its store: forget its copies, promoting a surviving
    /// copy to home. Returns whether any worker still holds the chunk.
    pub fn drop_worker(&mut self, chunk: ChunkId, worker: u32) -> bool {
        let mut survivors = self.take_copies(chunk);
        survivors.retain(|&holder| holder != worker);
        let place = &mut self.places[chunk.index()];
        if place.home == worker {
            match survivors.pop() {
                Some(new_home) => {
                    place.home = new_home;
                    place.set(HOME_IN_MEMORY, true);
                    place.set(HOME_ON_DISK, false);
                }
                None => {
                    place.home = NOWHERE;
                    place.set(HOME_IN_MEMORY | HOME_ON_DISK, false);
                }
            }
        }
        let home = place.home;
        for survivor in survivors {
            self.copied(chunk, survivor);
        }
        home != NOWHERE
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

    /// The record stays 24 bytes with the coordinator's 8-byte state.
    #[test]
    fn a_place_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Place<(u32, [bool; 4])>>(), 24);
    }

    /// The first copy is inline, further ones (and ids past `u16`) in the map; every
    /// query sees both.
    #[test]
    fn copies_past_the_inline_one_are_all_seen() {
        let mut locations = ChunkLocations::new([(), ()].into_iter());
        let (c, d) = (ChunkId(0), ChunkId(1));
        locations.produced(c, 0, 10, true);
        for worker in [3, 1, 3, 70_000, 1] {
            locations.copied(c, worker);
        }
        let copies: Vec<u32> = locations.copies(c).collect();
        assert_eq!(copies, [3, 1, 70_000]);
        for worker in [0, 1, 3, 70_000] {
            assert!(locations.held_by(c, worker), "worker {worker}");
            assert_eq!(locations.source_for(c, worker), worker);
        }
        assert!(!locations.held_by(c, 2));
        assert_eq!(locations.source_for(c, 2), 0);
        let mut holders = Vec::new();
        locations.for_each_memory_holder(c, |w| holders.push(w));
        assert_eq!(holders, [0, 3, 1, 70_000]);
        // The home goes: the last copy takes over, the others stay copies.
        assert!(locations.drop_worker(c, 0));
        assert_eq!(locations.source_for(c, 2), 70_000);
        let mut holders = Vec::new();
        locations.for_each_memory_holder(c, |w| holders.push(w));
        assert_eq!(holders, [70_000, 3, 1]);
        // A copy that is not the home goes.
        assert!(locations.drop_worker(c, 3));
        let mut freed = Vec::new();
        locations.remove(c, |w| freed.push(w));
        assert_eq!(freed, [70_000, 1]);
        assert!(!locations.in_memory(c));
        // A chunk never copied needs no map entry.
        locations.produced(d, 2, 8, true);
        locations.copied(d, 1);
        assert!(locations.more_copies.is_empty());
        let mut bytes_on = [0; 3];
        locations.add_bytes_by_worker(&[d, d], &mut bytes_on);
        assert_eq!(bytes_on, [0, 16, 16]);
        let action = locations.spill(d);
        assert_eq!((action.write_on, action.evict_on), (Some(2), vec![1]));
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
