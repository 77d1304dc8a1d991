//! How many runs of this process are between their start and their clean-up, so a
//! front-end that must end the process (on SIGTERM, say) can first wait for them to
//! remove their temporary files, partial saves and spill files ([`wait_until_idle`]).

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

static RUNNING: Mutex<usize> = Mutex::new(0);
static IDLE: Condvar = Condvar::new();

/// Marks a run as started until the guard is dropped, which must be after the run
/// has removed its files.
pub fn running() -> Running {
    *RUNNING.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    Running(())
}

/// A run in progress; see [`running`].
pub struct Running(());

impl Drop for Running {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        *running = running.saturating_sub(1);
        if *running == 0 {
            IDLE.notify_all();
        }
    }
}

/// Waits until no run is between its start and its clean-up; while the returned
/// guard lives no run can start (a front-end holds it until the process exits).
pub fn wait_until_idle() -> Idle {
    let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    while *running > 0 {
        running = IDLE.wait(running).unwrap_or_else(PoisonError::into_inner);
    }
    Idle(running)
}

/// No run is going, and none can start while it lives; see [`wait_until_idle`].
pub struct Idle(#[allow(dead_code, reason = "held for its lock")] MutexGuard<'static, usize>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_returns_once_the_runs_are_done() {
        let run = running();
        let waiter = std::thread::spawn(|| drop(wait_until_idle()));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiter.is_finished());
        drop(run);
        waiter.join().expect("the wait ends");
    }
}
