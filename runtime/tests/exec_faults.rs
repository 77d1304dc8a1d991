//! Failures: injected kernel faults are retried (on another worker) and never change
//! the results; a kernel that keeps failing stops the job after the last retry; a
//! killed worker's chunks are recomputed from their lineage with the same results,
//! also together with a memory limit.

mod exec_support;

use exec_support::random_dag::{build_plan, subtask_spec};
use exec_support::{chunk_bytes, execute_within, run_sequential, values, PlanBuilder, Toy};
use marsc_runtime::exec::{
    execute, ChunkKernel, ExecError, ExecOptions, NoObserver, TraceRecorder,
};
use marsc_runtime::plan::{ChunkId, OpArg, Plan, PlanOp, Subtask, SubtaskId};
use proptest::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

fn faulty(workers: u32, rate: f64, seed: u64) -> ExecOptions {
    ExecOptions {
        workers,
        inject_faults: Some((rate, seed)),
        ..ExecOptions::default()
    }
}

fn killing(workers: u32, worker: u32, fraction: f64) -> ExecOptions {
    ExecOptions {
        workers,
        kill_worker: Some((worker, fraction)),
        ..ExecOptions::default()
    }
}

/// A binary tree of `Add`s over `leaves` chunks of 64 elements, every subtask
/// pinned to `worker` when one is given.
fn tree(leaves: usize, worker: Option<u32>) -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let mut level: Vec<ChunkId> = (0..leaves)
        .map(|i| {
            b.single(
                Toy::Const((0..64).map(|j| i as i64 * 100 + j).collect()),
                &[],
                worker,
            )
        })
        .collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| b.single(Toy::Add, pair, worker))
            .collect();
    }
    b.result(level[0]);
    b.finish()
}

/// A wide plan: 200 chunks, each scaled, then summed in groups and in total.
fn wide() -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let scaled: Vec<ChunkId> = (0..200)
        .map(|i| {
            let c = b.single(Toy::Const(vec![i, -i, 2 * i]), &[], None);
            b.single(Toy::Scale(3), &[c], None)
        })
        .collect();
    let groups: Vec<ChunkId> = scaled
        .chunks(10)
        .map(|g| b.single(Toy::Sum, g, None))
        .collect();
    for &g in &groups[..3] {
        b.result(g);
    }
    let total = b.single(Toy::Sum, &groups, None);
    b.result(total);
    b.finish()
}

// ---------------------------------------------------------------- injected faults

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn injected_faults_never_change_the_results(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        rate in prop::sample::select(vec![0.05, 0.3]),
        seed in any::<u64>(),
    ) {
        let plan = build_plan(&specs, &result_picks);
        let expected = run_sequential(&plan).expect("toy plans never fail");
        for workers in 1..=4 {
            let output = execute_within(60, &plan, &faulty(workers, rate, seed)).expect("run succeeds");
            prop_assert_eq!(values(&output), expected.clone());
            prop_assert_eq!(output.stats.subtasks, plan.subtasks.len() as u64);
        }
    }
}

#[test]
fn injected_faults_are_retried() {
    let plan = wide();
    let expected = run_sequential(&plan).unwrap();
    for (rate, seed) in [(0.05, 1), (0.3, 2)] {
        for workers in 1..=4 {
            let output = execute_within(60, &plan, &faulty(workers, rate, seed)).unwrap();
            assert_eq!(values(&output), expected);
            let stats = &output.stats;
            // About rate × 421 first attempts fail; 0.05 gives about 21.
            assert!(stats.retries >= 5, "{rate}, {workers} workers: {stats}");
            let runs: u64 = stats.subtasks_per_worker.iter().sum();
            assert_eq!(runs, plan.subtasks.len() as u64);
        }
    }
}

#[test]
fn a_retry_goes_to_another_worker() {
    let mut b = PlanBuilder::new();
    let c = b.single(Toy::Const(vec![4]), &[], Some(0));
    b.result(c);
    let plan = b.finish();
    // Rate 1 with one retry: the first attempt (on worker 0) always fails, the
    // last allowed one never does.
    let options = ExecOptions {
        max_retries: 1,
        ..faulty(2, 1.0, 0)
    };
    let mut trace = TraceRecorder::new();
    let output = execute(&Arc::new(plan), &options, &mut trace).unwrap();
    assert_eq!(values(&output), [(c, vec![4])]);
    assert_eq!(output.stats.retries, 1);
    assert_eq!(output.stats.subtasks_per_worker, [0, 1]);
    assert_eq!(trace.spans().len(), 1);
    assert_eq!(trace.spans()[0].worker, 1);
}

// ---------------------------------------------------------------- real failures

/// Fails its first `fail_first` calls, then returns `[1]`; counts every call.
#[derive(Clone, Debug)]
struct Flaky {
    calls: Arc<AtomicU32>,
    fail_first: u32,
}

impl ChunkKernel for Flaky {
    type Value = Vec<i64>;
    type Error = String;

    fn run(&self, _args: &[&Vec<i64>]) -> Result<Vec<i64>, String> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst);
        if call < self.fail_first {
            Err(format!("flaky call {call}"))
        } else {
            Ok(vec![1])
        }
    }

    fn nbytes(value: &Vec<i64>) -> usize {
        value.len() * 8
    }
}

fn flaky_plan(fail_first: u32) -> (Plan<Flaky>, Arc<AtomicU32>) {
    let calls = Arc::new(AtomicU32::new(0));
    let kernel = Flaky {
        calls: Arc::clone(&calls),
        fail_first,
    };
    let plan = Plan {
        subtasks: vec![Subtask {
            ops: vec![PlanOp {
                kernel,
                args: Default::default(),
            }]
            .into(),
            inputs: Default::default(),
            outputs: [(0, ChunkId(0))].into_iter().collect(),
            priority: 0,
            worker: None,
            label: 42,
        }],
        num_chunks: 1,
        results: vec![ChunkId(0)],
    };
    (plan, calls)
}

#[test]
fn a_transient_kernel_failure_is_retried() {
    let (plan, calls) = flaky_plan(2);
    let output = execute(
        &Arc::new(plan),
        &ExecOptions {
            workers: 2,
            ..ExecOptions::default()
        },
        &mut NoObserver,
    )
    .unwrap();
    assert_eq!(*output.results[0].1, vec![1]);
    assert_eq!(output.stats.retries, 2);
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[test]
fn a_kernel_that_keeps_failing_stops_the_job_after_the_last_retry() {
    for max_retries in [0, 3] {
        let (plan, calls) = flaky_plan(u32::MAX);
        let options = ExecOptions {
            workers: 2,
            max_retries,
            ..ExecOptions::default()
        };
        let error = execute(&Arc::new(plan), &options, &mut NoObserver).unwrap_err();
        let ExecError::SubtaskFailed {
            subtask,
            label,
            message,
            ..
        } = error
        else {
            panic!("unexpected error {error:?}");
        };
        assert_eq!((subtask, label), (SubtaskId(0), 42));
        assert_eq!(message, format!("flaky call {max_retries}"));
        assert_eq!(calls.load(Ordering::SeqCst), max_retries + 1);
    }
}

// ---------------------------------------------------------------- killed workers

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn a_killed_worker_never_changes_the_results(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        fraction in prop::sample::select(vec![0.0, 0.3, 0.6, 1.0]),
        victim in any::<u32>(),
    ) {
        let plan = build_plan(&specs, &result_picks);
        let expected = run_sequential(&plan).expect("toy plans never fail");
        for workers in 2..=4 {
            let options = killing(workers, victim % workers, fraction);
            let output = execute_within(60, &plan, &options).expect("run succeeds");
            prop_assert_eq!(values(&output), expected.clone());
            prop_assert_eq!(output.stats.subtasks, plan.subtasks.len() as u64);
        }
    }
}

/// Every subtask runs on worker 1, which dies part way: the chunks it held are
/// rebuilt on worker 0 from their lineage, down to leaves already freed.
#[test]
fn chunks_lost_with_a_worker_are_recomputed() {
    let plan = tree(64, Some(1));
    let expected = run_sequential(&plan).unwrap();
    for fraction in [0.3, 0.6] {
        let output = execute_within(60, &plan, &killing(2, 1, fraction)).unwrap();
        assert_eq!(values(&output), expected);
        let stats = &output.stats;
        assert!(stats.recomputed > 0, "{fraction}: {stats}");
        assert_eq!(stats.subtasks, plan.subtasks.len() as u64);
        let runs: u64 = stats.subtasks_per_worker.iter().sum();
        assert_eq!(runs, stats.subtasks + stats.recomputed, "{stats}");
    }
}

#[test]
fn killed_workers_retries_and_spilling_together() {
    let plan = tree(64, None);
    let expected = run_sequential(&plan).unwrap();
    let spill_dir = tempfile::tempdir().unwrap();
    for fraction in [0.3, 0.6] {
        for workers in 2..=4 {
            let options = ExecOptions {
                workers,
                kill_worker: Some((workers - 1, fraction)),
                inject_faults: Some((0.2, 7)),
                memory_limit: Some(6 * 64 * 8),
                projected_chunk_bytes: Some(chunk_bytes(&plan)),
                spill_dir: Some(spill_dir.path().to_path_buf()),
                ..ExecOptions::default()
            };
            let output = execute_within(60, &plan, &options).unwrap();
            assert_eq!(values(&output), expected);
            let stats = &output.stats;
            assert!(stats.retries > 0 && stats.spilled_bytes > 0, "{stats}");
            assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
        }
    }
}

#[test]
fn a_chain_survives_its_worker_dying() {
    let mut b = PlanBuilder::new();
    let mut link = b.single(Toy::Const(vec![1, 2]), &[], Some(0));
    for _ in 0..300 {
        let ops = vec![
            PlanOp {
                kernel: Toy::Const(vec![1]),
                args: Default::default(),
            },
            PlanOp {
                kernel: Toy::Add,
                args: [OpArg::Input(0), OpArg::Local(0)].into_iter().collect(),
            },
        ];
        link = b.subtask(ops, &[link], &[1], 0, Some(0))[0];
    }
    b.result(link);
    let plan = b.finish();
    let output = execute_within(60, &plan, &killing(3, 0, 0.5)).unwrap();
    assert_eq!(values(&output), [(link, vec![301, 302])]);
    // Worker 0 dies after 151 links (one in flight at a time, so exactly then);
    // the last of them is lost and rebuilt from the start of the chain.
    assert_eq!(output.stats.recomputed, 151, "{}", output.stats);
    assert_eq!(output.stats.subtasks_per_worker[0], 151);
}

#[test]
fn nonsensical_fault_options_are_rejected() {
    let plan = Arc::new(tree(2, None));
    let cases = [
        killing(1, 0, 0.5),
        killing(2, 2, 0.5),
        killing(2, 0, 1.5),
        killing(2, 0, f64::NAN),
        faulty(2, -0.1, 0),
        faulty(2, 2.0, 0),
    ];
    for options in cases {
        let error = execute(&plan, &options, &mut NoObserver).unwrap_err();
        assert!(
            matches!(error, ExecError::InvalidOptions(_)),
            "{options:?}: {error:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Faults, a death and spilling in one run.
    #[test]
    fn everything_at_once_never_changes_the_results(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        fraction in prop::sample::select(vec![0.0, 0.3, 0.6]),
        limit in prop::sample::select(vec![0u64, 64, 1024]),
        seed in any::<u64>(),
        workers in 2u32..5,
    ) {
        let plan = build_plan(&specs, &result_picks);
        let expected = run_sequential(&plan).expect("toy plans never fail");
        let spill_dir = tempfile::tempdir().unwrap();
        let options = ExecOptions {
            workers,
            kill_worker: Some((seed as u32 % workers, fraction)),
            inject_faults: Some((0.2, seed)),
            memory_limit: Some(limit),
            spill_dir: Some(spill_dir.path().to_path_buf()),
            ..ExecOptions::default()
        };
        let output = execute_within(60, &plan, &options).expect("run succeeds");
        prop_assert_eq!(values(&output), expected);
        prop_assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
    }
}
