//! Ctrl-C handling: one process-wide SIGINT handler that raises a flag instead of
//! killing the process, so a run can stop at chunk granularity and clean up its
//! temporary and partial files. The batch CLI and the REPL share the same flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag every SIGINT sets; created on first use.
fn shared_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Installs the process-wide SIGINT handler once (idempotent); Ctrl-C then sets
/// the flag instead of killing the process.
pub fn install() -> Result<(), String> {
    // A signal handler can be registered only once per process, so the outcome of
    // the first attempt is remembered and returned to every later caller.
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let flag = Arc::clone(shared_flag());
            ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
                .map_err(|error| format!("cannot install the Ctrl-C handler: {error}"))
        })
        .clone()
}

/// The flag the handler sets; pass it as the run's cancel flag.
pub fn flag() -> Arc<AtomicBool> {
    Arc::clone(shared_flag())
}

/// Clears the flag (the REPL calls it before each run).
pub fn reset() {
    shared_flag().store(false, Ordering::SeqCst);
}

/// Whether Ctrl-C was pressed since the last [`reset`].
pub fn is_set() -> bool {
    shared_flag().load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_is_idempotent_and_reset_clears_the_flag() {
        assert_eq!(install(), Ok(()));
        assert_eq!(install(), Ok(()));
        flag().store(true, Ordering::SeqCst);
        assert!(is_set());
        reset();
        assert!(!is_set());
        assert!(!flag().load(Ordering::SeqCst));
    }
}
