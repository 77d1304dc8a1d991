//! The job API as a server would use it: two scripts run at once in one process,
//! each with its own output and figures, and cancelling one job (its own token)
//! stops it alone, cleanly, while the other finishes with the right answer.

use marsc::job::{self, CancelToken, JobError, Options, RunOptions, RunStats};
use std::time::{Duration, Instant};

/// A job that runs for many seconds: 2·10⁹ elements in 2,000 chunks, summed.
const LONG: &str = "import mars.tensor as mt\nprint(mt.ones(2000000000, chunks=1000000).sum())\n";

fn run(text: &str, cancel: CancelToken) -> Result<(String, RunStats), JobError> {
    let run_options = RunOptions {
        workers: 2,
        cancel,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let stats = job::run(text, &Options::default(), &run_options, &mut out)?;
    Ok((String::from_utf8(out).expect("utf-8 output"), stats))
}

#[test]
fn two_jobs_run_at_once_with_their_own_output_and_figures() {
    let first = "import mars.tensor as mt\nx = mt.arange(10, chunks=3)\nprint(x.sum())\n";
    let second = "import mars.tensor as mt\nprint((mt.ones((4, 4), chunks=2) * 2).sum(axis=0))\n";
    let (one, two) = std::thread::scope(|scope| {
        let one = scope.spawn(|| run(first, CancelToken::new()));
        let two = scope.spawn(|| run(second, CancelToken::new()));
        (one.join().expect("no panic"), two.join().expect("no panic"))
    });
    let (one_out, one_stats) = one.expect("the first job runs");
    let (two_out, two_stats) = two.expect("the second job runs");
    assert_eq!(one_out, "45\n");
    assert_eq!(two_out, "[8. 8. 8. 8.]\n");
    // Each job's figures are its own: 4 chunks of arange against 4 blocks of ones.
    assert_ne!(one_stats.chunks, two_stats.chunks);
    assert_ne!(one_stats.subtasks, two_stats.subtasks);
}

#[test]
fn cancelling_one_job_leaves_the_other_running() {
    let long_token = CancelToken::new();
    let short = "import mars.tensor as mt\nprint(mt.arange(100, chunks=7).sum())\n";
    let (long, short, stopped_after) = std::thread::scope(|scope| {
        let token = long_token.clone();
        let long = scope.spawn(move || {
            let started = Instant::now();
            let outcome = run(LONG, token);
            (outcome, started.elapsed())
        });
        std::thread::sleep(Duration::from_millis(300));
        let short = scope.spawn(|| run(short, CancelToken::new()));
        long_token.cancel();
        let (long, elapsed) = long.join().expect("no panic");
        (long, short.join().expect("no panic"), elapsed)
    });
    assert!(
        matches!(long, Err(JobError::Cancelled)),
        "the long job was not cancelled: {long:?}"
    );
    // Within seconds of the cancel, not the minutes the whole job takes.
    assert!(stopped_after < Duration::from_secs(20), "{stopped_after:?}");
    let (out, _) = short.expect("the other job runs");
    assert_eq!(out, "4950\n");
}

#[test]
fn a_job_cancelled_before_it_runs_does_nothing() {
    let token = CancelToken::new();
    token.cancel();
    let error = run(LONG, token).expect_err("cancelled");
    assert!(matches!(error, JobError::Cancelled), "{error:?}");
    assert_eq!(error.to_string(), "interrupted");
}
