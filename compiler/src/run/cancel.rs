//! A job's cancel token: one per job, never process-wide. Whoever may stop the job
//! (the CLI's signal thread, the REPL's Ctrl-C, a server's cancel request) holds a
//! clone and calls [`CancelToken::cancel`]; the run stops at chunk granularity,
//! removes its temporary files and partial saves, and fails with
//! [`crate::error::JobError::Cancelled`]. Cancelling one job touches no other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shared, one-way switch: once cancelled, always cancelled.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag the executor watches.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }

    /// Whether two tokens are clones of one another.
    pub fn same_as(&self, other: &CancelToken) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_switch_and_others_do_not() {
        let token = CancelToken::new();
        let clone = token.clone();
        let other = CancelToken::new();
        clone.cancel();
        assert!(token.is_cancelled());
        assert!(token.flag().load(Ordering::SeqCst));
        assert!(!other.is_cancelled());
        assert!(token.same_as(&clone) && !token.same_as(&other));
    }
}
