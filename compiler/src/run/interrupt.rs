//! Ctrl-C handling: one process-wide SIGINT handler that raises a flag instead of
//! killing the process, so a run can stop at chunk granularity and clean up its
//! temporary and partial files. The batch CLI and the REPL share the same flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

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

/// The exit status of a process stopped by Ctrl-C (128 + SIGINT), as shells expect.
pub const EXIT_STATUS: u8 = 130;

/// How often [`exit_if_interrupted_during`] looks at the flag.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work`, ending the process with "interrupted" and [`EXIT_STATUS`] if Ctrl-C
/// is pressed meanwhile. Only for work that leaves nothing behind (compiling): it
/// stops within a poll period however long a pass takes, without every pass having
/// to watch the flag.
pub fn exit_if_interrupted_during<T>(work: impl FnOnce() -> T) -> T {
    let working = Arc::new(AtomicBool::new(true));
    let watching = Arc::clone(&working);
    let watchdog = std::thread::Builder::new()
        .name("marsc-interrupt-watch".to_string())
        .spawn(move || {
            while watching.load(Ordering::SeqCst) {
                if is_set() {
                    eprintln!("interrupted");
                    std::process::exit(i32::from(EXIT_STATUS));
                }
                std::thread::park_timeout(POLL);
            }
        });
    let result = work();
    working.store(false, Ordering::SeqCst);
    // Joined before returning, so the process can no longer exit under the caller's
    // feet once it starts work that does leave files behind.
    if let Ok(watchdog) = watchdog {
        watchdog.thread().unpark();
        let _ = watchdog.join();
    }
    result
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
