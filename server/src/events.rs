//! The event bus: every job's state changes and progress go to one broadcast
//! channel, numbered in order. The SSE streams (`/api/events`, all jobs, and
//! `/api/jobs/{id}/events`, one) read it; a reader that falls behind is told to
//! resynchronize (a `resync` event: fetch the job state again) rather than holding
//! the senders back.

use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast;

/// Events kept for slow readers before they must resynchronize.
const CAPACITY: usize = 4096;

/// One event: its sequence number, job, kind (`state`, `progress`, `removed`) and
/// JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    pub seq: u64,
    pub job: u64,
    pub kind: &'static str,
    pub data: Value,
}

/// The broadcast channel of all events.
pub struct Bus {
    sender: broadcast::Sender<Arc<Event>>,
    next: AtomicU64,
}

impl Default for Bus {
    fn default() -> Self {
        Bus::new()
    }
}

impl Bus {
    pub fn new() -> Bus {
        let (sender, _) = broadcast::channel(CAPACITY);
        Bus {
            sender,
            next: AtomicU64::new(1),
        }
    }

    /// Sends an event (dropped when nobody listens).
    pub fn send(&self, job: u64, kind: &'static str, data: Value) {
        let seq = self.next.fetch_add(1, Ordering::SeqCst);
        let _ = self.sender.send(Arc::new(Event {
            seq,
            job,
            kind,
            data,
        }));
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.sender.subscribe()
    }
}
