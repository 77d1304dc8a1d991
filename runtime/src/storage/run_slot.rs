//! [`RunSlot`]: a value a kernel holds only while its plan runs (a save's writable
//! mapping, its temporary file), set once by the op that makes it and read by the
//! others. A plan compares and clones kernels by their parameters, so a slot is no
//! parameter: a clone starts empty and any two slots compare equal.

use std::sync::Mutex;

/// Run state of a kernel: empty until [`set`](RunSlot::set), shared by every clone
/// of the `Arc` that holds the kernel, but not by clones of the kernel itself.
pub struct RunSlot<T>(Mutex<Option<T>>);

impl<T: Clone> RunSlot<T> {
    /// The value, if one was set (and not taken).
    pub fn get(&self) -> Option<T> {
        self.0.lock().ok().and_then(|slot| slot.clone())
    }

    /// Keeps `value` unless a value is already kept.
    pub fn set(&self, value: T) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(value);
        }
    }

    /// Empties the slot, returning what it held.
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }

    /// Whether a value is kept.
    pub fn is_set(&self) -> bool {
        self.0.lock().is_ok_and(|slot| slot.is_some())
    }
}

impl<T> Default for RunSlot<T> {
    fn default() -> RunSlot<T> {
        RunSlot(Mutex::new(None))
    }
}

impl<T> Clone for RunSlot<T> {
    fn clone(&self) -> RunSlot<T> {
        RunSlot::default()
    }
}

impl<T> PartialEq for RunSlot<T> {
    fn eq(&self, _: &RunSlot<T>) -> bool {
        true
    }
}

impl<T> Eq for RunSlot<T> {}

impl<T> std::fmt::Debug for RunSlot<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = self.0.lock().is_ok_and(|slot| slot.is_some());
        write!(f, "RunSlot(set: {set})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_keeps_its_first_value_and_clones_start_empty() {
        let slot = RunSlot::default();
        slot.set(1);
        slot.set(2);
        assert_eq!(slot.get(), Some(1));
        assert!(!slot.clone().is_set());
        assert_eq!(slot, RunSlot::default());
        assert_eq!(slot.take(), Some(1));
        assert!(!slot.is_set());
    }
}
