//! The job API as a server would use it: two scripts run at once in one process,
//! each with its own output and figures, and cancelling one job (its own token)
//! stops it alone, cleanly, while the other finishes with the right answer.

use marsc::job::{
    self, CancelToken, JobError, Options, Printed, PrintedItem, RunOptions, RunStats,
};
use std::time::{Duration, Instant};

/// A job that runs for many seconds: 4·10⁹ random numbers in 2,000 chunks, summed.
/// (Not a sum of `ones`: the JIT fuses that into a loop that never touches memory,
/// which finished 2·10⁹ elements in 0.19 s — before the cancel came.)
const LONG: &str =
    "import mars.tensor as mt\nprint(mt.random.rand(4000000000, chunks=2000000).sum())\n";

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

#[test]
fn a_cancel_stops_the_compile_between_passes() {
    // A compile of millions of chunks takes seconds: the token is read between
    // passes, so a cancelled job does not compile (nor run) at all.
    let run_options = RunOptions {
        workers: 2,
        ..RunOptions::default()
    };
    run_options.cancel.cancel();
    let big =
        "import mars.tensor as mt\nx = mt.ones((1000, 1000), chunks=1)\nprint((x + 1).sum())\n";
    let error = job::compile_for_run(big, &Options::default(), &run_options)
        .err()
        .expect("a cancelled compile gives no program");
    assert!(matches!(error, JobError::Cancelled), "{error:?}");
    // Without a cancel the same entry point compiles.
    let small = "import mars.tensor as mt\nprint(mt.ones(4, chunks=2).sum())\n";
    let compiled = job::compile_for_run(small, &Options::default(), &RunOptions::default());
    assert!(compiled.is_ok());
}

#[test]
fn prints_reach_a_sink_as_data_and_render_as_print_does() {
    let text = "import mars.tensor as mt\nx = mt.arange(3, chunks=2)\nprint('x:', x, x.sum(), sep='|')\nprint(mt.ones(2000))\n";
    let run_options = RunOptions {
        workers: 2,
        ..RunOptions::default()
    };
    let mut printed: Vec<Printed> = Vec::new();
    job::run_to(text, &Options::default(), &run_options, &mut printed).expect("runs");
    assert_eq!(printed.len(), 2);
    let first = &printed[0];
    assert_eq!(first.sep, "|");
    let [PrintedItem::Text(label), PrintedItem::Tensor(x), PrintedItem::Tensor(sum)] =
        first.items.as_slice()
    else {
        panic!("items: {:?}", first.items);
    };
    assert_eq!(label, "x:");
    assert_eq!(x.shape, vec![3]);
    assert!(sum.shape.is_empty());
    // A summarized tensor arrives as its corners, with its whole shape.
    let PrintedItem::Tensor(ones) = &printed[1].items[0] else {
        panic!("a tensor");
    };
    assert_eq!(ones.shape, vec![2000]);
    assert!(ones.data.len() < 2000);
    // Rendered, the data is exactly what a text run writes.
    let mut out = Vec::new();
    job::run(text, &Options::default(), &run_options, &mut out).expect("runs");
    let rendered: String = printed.iter().map(Printed::text).collect();
    assert_eq!(String::from_utf8(out).expect("utf-8"), rendered);
    assert!(rendered.starts_with("x:|[0 1 2]|3\n[1. 1. 1. ... 1. 1. 1.]\n"));
}
