//! A monotone-ish bucket queue of nodes keyed by a small count: O(1) push, amortized
//! O(1) pop of a smallest key, most recently pushed first among equal keys. Entries
//! are not updated in place; the owner pushes again when a key changes and skips
//! stale entries on pop.

/// Nodes by key, smallest key first, last pushed first within a key.
pub(crate) struct BucketQueue {
    buckets: Vec<Vec<u32>>,
    /// No bucket below this one holds anything.
    lowest: usize,
}

impl BucketQueue {
    pub(crate) fn new() -> BucketQueue {
        BucketQueue {
            buckets: Vec::new(),
            lowest: 0,
        }
    }

    pub(crate) fn push(&mut self, key: u32, node: u32) {
        let key = key as usize;
        if key >= self.buckets.len() {
            self.buckets.resize_with(key + 1, Vec::new);
        }
        self.buckets[key].push(node);
        self.lowest = self.lowest.min(key);
    }

    /// Removes and returns a (key, node) with the smallest key.
    pub(crate) fn pop(&mut self) -> Option<(u32, u32)> {
        while let Some(bucket) = self.buckets.get_mut(self.lowest) {
            if let Some(node) = bucket.pop() {
                return Some((self.lowest as u32, node));
            }
            self.lowest += 1;
        }
        None
    }
}
