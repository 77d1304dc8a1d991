//! Scheduler throughput on a million trivial subtasks (issue 6: dask manages about
//! 4,500 tasks/s). Timing is not a test assertion, so this is ignored by default:
//! `cargo test --release -p marsc-runtime --test exec_throughput -- --ignored --nocapture`

mod exec_support;

use exec_support::{PlanBuilder, Toy};
use marsc_runtime::exec::{execute, ExecOptions, NoObserver};
use marsc_runtime::plan::{ChunkId, Plan};
use std::sync::Arc;
use std::time::Instant;

/// A binary tree of `Add`s over `2^depth` one-element leaves.
fn tree_reduction(depth: u32) -> (Plan<Toy>, i64) {
    let mut b = PlanBuilder::new();
    let mut level: Vec<ChunkId> = (0..1u32 << depth)
        .map(|_| b.single(Toy::Const(vec![1]), &[], None))
        .collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| b.single(Toy::Add, pair, None))
            .collect();
    }
    b.result(level[0]);
    (b.finish(), 1i64 << depth)
}

/// `chains` independent chains of `length` links, summed at the end.
fn chains(chains: usize, length: usize) -> (Plan<Toy>, i64) {
    let mut b = PlanBuilder::new();
    let ends: Vec<ChunkId> = (0..chains)
        .map(|_| {
            let mut link = b.single(Toy::Const(vec![0]), &[], None);
            for _ in 1..length {
                link = b.single(Toy::Scale(1), &[link], None);
            }
            link
        })
        .collect();
    let total = b.single(Toy::Sum, &ends, None);
    b.result(total);
    (b.finish(), 0)
}

/// CPU seconds this process has used so far (all threads), from /proc; 0 elsewhere.
/// Other jobs on a shared machine distort wall time but not this.
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesized command name; utime and stime are the 12th and
    // 13th of them, in clock ticks (100 per second on Linux).
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// Worker counts to try; `MARSC_BENCH_WORKERS=1,2` overrides the default 1, 2, 4.
fn worker_counts() -> Vec<u32> {
    std::env::var("MARSC_BENCH_WORKERS")
        .ok()
        .map(|list| {
            list.split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect()
        })
        .unwrap_or_else(|| vec![1, 2, 4])
}

fn measure(name: &str, plan: &Plan<Toy>, expected: i64) {
    for workers in worker_counts() {
        let options = ExecOptions {
            workers,
            ..ExecOptions::default()
        };
        // The plan's copy is made (and dropped) outside the timed run: a caller hands
        // the executor a plan it already holds, and copying a million subtasks is not
        // the executor's cost (it was counted until 2026-11-27: see clone_ms).
        let clone_started = Instant::now();
        let shared = Arc::new(plan.clone());
        let clone_ms = clone_started.elapsed().as_secs_f64() * 1e3;
        let started = Instant::now();
        let cpu_before = process_cpu_seconds();
        let output = execute(&shared, &options, &mut NoObserver).expect("run succeeds");
        let seconds = started.elapsed().as_secs_f64();
        let cpu_seconds = process_cpu_seconds() - cpu_before;
        drop(shared);
        assert_eq!(output.results[0].1[0], expected);
        let subtasks = plan.subtasks.len() as f64;
        println!(
            "{name}: {} subtasks, {workers} workers: {seconds:.3} s, {:.0} subtasks/s; \
             {cpu_seconds:.2} CPU s, {:.0} subtasks per CPU second; \
             {:.0} ns per subtask, {:.0} CPU ns per subtask (plan copy {clone_ms:.1} ms, \
             not counted); transfer {} B, peak live {} chunks, per worker {:?}",
            plan.subtasks.len(),
            subtasks / seconds,
            subtasks / cpu_seconds.max(0.01),
            seconds * 1e9 / subtasks,
            cpu_seconds * 1e9 / subtasks,
            output.stats.transfer_bytes,
            output.stats.peak_live_chunks,
            output.stats.subtasks_per_worker,
        );
    }
}

#[test]
#[ignore = "benchmark; run with --release --ignored --nocapture"]
fn a_million_trivial_subtasks() {
    let (plan, expected) = tree_reduction(19);
    measure("tree reduction", &plan, expected);
    let (plan, expected) = chains(1000, 1000);
    measure("1000 chains", &plan, expected);
}
