//! Termination signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP. [`install`] blocks
//! them in the calling thread, and so in every thread it starts later (workers
//! included), and one thread takes them with `sigwait`. A signal then cancels the
//! jobs whose tokens are [`watch`]ed instead of killing the process, so a run stops
//! at chunk granularity and removes its temporary files, partial saves and spill
//! files. The front-ends (the batch CLI, the REPL) watch their job's token; a job
//! run through the API by anyone else is cancelled only by its own token.
//!
//! SIGINT only stops the run: the REPL goes on, the CLI exits with 130. SIGTERM and
//! SIGHUP end the process, as their default action does, but only once no run is
//! between start and clean-up (`marsc::run::active`): at once when none is, else as soon as
//! it has cleaned up. Either way the exit status is 128 + the signal's number, as a
//! shell reports a process the signal killed.

use marsc::run::{active, CancelToken};
use nix::sys::signal::{SigSet, Signal};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

/// The signals that stop a run.
const SIGNALS: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

/// The tokens a signal cancels.
static WATCHED: Mutex<Vec<CancelToken>> = Mutex::new(Vec::new());

/// The number of the last signal taken since the last [`reset`]; 0 for none.
static LAST_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Why the signals could not be taken over (the system refused to block them or
/// to start the thread that takes them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstallError(String);

impl std::fmt::Display for InstallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot install the signal handler: {}", self.0)
    }
}

impl std::error::Error for InstallError {}

/// Installs the process-wide handling once (idempotent). Call it before starting
/// any thread: a thread started earlier would still get the signals' default
/// action.
pub fn install() -> Result<(), InstallError> {
    // Signals can be taken over only once per process, so the outcome of the first
    // attempt is remembered and returned to every later caller.
    static INSTALLED: OnceLock<Result<(), InstallError>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let cannot = |error: &dyn std::fmt::Display| InstallError(error.to_string());
            let mut signals = SigSet::empty();
            for signal in SIGNALS {
                signals.add(signal);
            }
            signals.thread_block().map_err(|e| cannot(&e))?;
            std::thread::Builder::new()
                .name("marsc-signals".to_string())
                .spawn(move || {
                    while let Ok(signal) = signals.wait() {
                        on_signal(signal);
                    }
                })
                .map(drop)
                .map_err(|e| cannot(&e))
        })
        .clone()
}

/// What a signal does (on the signal thread, so it may block and exit).
fn on_signal(signal: Signal) {
    LAST_SIGNAL.store(signal as i32, Ordering::SeqCst);
    for token in WATCHED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        token.cancel();
    }
    if signal == Signal::SIGINT {
        return;
    }
    // Held until the process exits, so no run can start after the wait.
    let _idle = active::wait_until_idle();
    std::process::exit(128 + signal as i32);
}

/// Lets a signal cancel `token` until the returned guard is dropped.
pub fn watch(token: &CancelToken) -> Watch {
    WATCHED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(token.clone());
    Watch(token.clone())
}

/// A token a signal cancels; see [`watch`].
pub struct Watch(CancelToken);

impl Drop for Watch {
    fn drop(&mut self) {
        let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(position) = watched.iter().position(|token| token.same_as(&self.0)) {
            watched.swap_remove(position);
        }
    }
}

/// Forgets the last signal.
#[cfg(test)]
fn reset() {
    LAST_SIGNAL.store(0, Ordering::SeqCst);
}

/// Whether a signal came since the last [`reset`].
pub fn is_set() -> bool {
    LAST_SIGNAL.load(Ordering::SeqCst) != 0
}

/// The exit status of a process a signal stopped, as shells expect: 128 + the
/// signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_status() -> u8 {
    match LAST_SIGNAL.load(Ordering::SeqCst) {
        signal @ 1..=127 => 128 + signal as u8,
        _ => 128 + Signal::SIGINT as u8,
    }
}

/// How often [`exit_if_interrupted_during`] looks at the flag.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work`, ending the process with "interrupted" and [`exit_status`] if a
/// signal comes meanwhile. Only for work that leaves nothing behind (compiling): it
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
                    std::process::exit(i32::from(exit_status()));
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
    fn install_is_idempotent_and_a_signal_cancels_only_watched_tokens() {
        assert_eq!(install(), Ok(()));
        assert_eq!(install(), Ok(()));
        let (watched, unwatched, dropped) =
            (CancelToken::new(), CancelToken::new(), CancelToken::new());
        let _watch = watch(&watched);
        drop(watch(&dropped));
        on_signal(Signal::SIGINT);
        assert!(is_set());
        assert!(watched.is_cancelled());
        assert!(!unwatched.is_cancelled() && !dropped.is_cancelled());
        assert_eq!(exit_status(), 130);
        reset();
        assert!(!is_set());
    }
}
