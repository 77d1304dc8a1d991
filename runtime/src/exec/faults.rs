//! Fault injection for testing recovery: kernel calls that fail at a given rate
//! ([`ExecOptions::inject_faults`]) and a worker dropped part way through the run
//! ([`ExecOptions::kill_worker`]). Both are deterministic, so a failing test can be
//! replayed.

use super::{ExecError, ExecOptions};
use crate::plan::SubtaskId;

/// Which subtask attempts fail on purpose.
#[derive(Clone, Copy, Debug)]
pub struct FaultInjection {
    rate: f64,
    seed: u64,
    max_retries: u32,
}

impl FaultInjection {
    pub fn new(options: &ExecOptions) -> Option<Self> {
        let (rate, seed) = options.inject_faults?;
        Some(FaultInjection {
            rate,
            seed,
            max_retries: options.max_retries,
        })
    }

    /// Whether attempt `attempt` (0 for the first run) of `subtask` fails, a pure
    /// function of (seed, subtask, attempt). The last attempt the retry budget allows
    /// is never struck: injected faults exercise recovery without failing the job,
    /// while a kernel that really fails still stops it.
    pub fn strikes(&self, subtask: SubtaskId, attempt: u32) -> bool {
        if attempt >= self.max_retries {
            return false;
        }
        let hash = mix(mix(self.seed ^ mix(u64::from(subtask.0))) ^ u64::from(attempt));
        unit_interval(hash) < self.rate
    }
}

/// The worker to drop and after how many completed subtasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KillSchedule {
    pub worker: u32,
    pub after_done: u64,
}

impl KillSchedule {
    pub fn new(options: &ExecOptions, total_subtasks: u64) -> Option<Self> {
        let (worker, fraction) = options.kill_worker?;
        let after_done = (fraction * total_subtasks as f64).ceil() as u64;
        Some(KillSchedule { worker, after_done })
    }
}

/// Rejects fault options that make no sense.
pub fn validate(options: &ExecOptions) -> Result<(), ExecError> {
    let invalid = |message: String| Err(ExecError::InvalidOptions(message));
    if let Some((rate, _)) = options.inject_faults {
        if !(0.0..=1.0).contains(&rate) {
            return invalid(format!(
                "the fault rate must be between 0 and 1, not {rate}"
            ));
        }
    }
    if let Some((worker, fraction)) = options.kill_worker {
        if options.workers < 2 {
            return invalid("killing a worker needs at least 2 workers".to_string());
        }
        if worker >= options.workers {
            return invalid(format!(
                "cannot kill worker {worker}: the workers are 0 to {}",
                options.workers - 1
            ));
        }
        if !(0.0..=1.0).contains(&fraction) {
            return invalid(format!(
                "the kill fraction must be between 0 and 1, not {fraction}"
            ));
        }
    }
    Ok(())
}

/// SplitMix64's finalizer: every input bit affects every output bit.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Maps a hash to [0, 1) using its top 53 bits.
fn unit_interval(hash: u64) -> f64 {
    (hash >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn injection(rate: f64, max_retries: u32) -> FaultInjection {
        FaultInjection {
            rate,
            seed: 7,
            max_retries,
        }
    }

    #[test]
    fn strikes_at_about_the_rate_and_never_on_the_last_attempt() {
        let faults = injection(0.3, 3);
        let struck = (0..10_000)
            .filter(|&s| faults.strikes(SubtaskId(s), 0))
            .count();
        assert!((2_700..3_300).contains(&struck), "{struck}");
        assert!((0..10_000).all(|s| !faults.strikes(SubtaskId(s), 3)));
        assert!((0..1000).all(|s| !injection(1.0, 0).strikes(SubtaskId(s), 0)));
        assert!((0..1000).all(|s| injection(1.0, 2).strikes(SubtaskId(s), 1)));
    }

    #[test]
    fn strikes_depend_on_seed_subtask_and_attempt_only() {
        let faults = injection(0.5, 5);
        let pattern = |f: &FaultInjection| {
            (0..64)
                .map(|s| f.strikes(SubtaskId(s / 4), s % 4))
                .collect::<Vec<_>>()
        };
        assert_eq!(pattern(&faults), pattern(&injection(0.5, 5)));
        let other_seed = FaultInjection { seed: 8, ..faults };
        assert_ne!(pattern(&faults), pattern(&other_seed));
    }

    #[test]
    fn kill_schedule_rounds_up() {
        let options = ExecOptions {
            workers: 2,
            kill_worker: Some((1, 0.3)),
            ..ExecOptions::default()
        };
        assert_eq!(
            KillSchedule::new(&options, 10),
            Some(KillSchedule {
                worker: 1,
                after_done: 3
            })
        );
        assert!(validate(&options).is_ok());
        let one_worker = ExecOptions {
            workers: 1,
            ..options.clone()
        };
        assert!(validate(&one_worker).is_err());
        let bad_fraction = ExecOptions {
            kill_worker: Some((0, 1.5)),
            ..options
        };
        assert!(validate(&bad_fraction).is_err());
    }
}
