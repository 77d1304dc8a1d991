//! Executor tests with toy kernels: results never depend on worker count or queue
//! depth, the figures of a hand-checked 2-worker run, chunk freeing, errors, panics,
//! cancellation and the Chrome trace.

mod exec_support;

use exec_support::random_dag::{build_plan, subtask_spec};
use exec_support::{run_sequential, PlanBuilder, Toy};
use marsc_runtime::exec::{
    execute, ExecError, ExecObserver, ExecOptions, ExecOutput, NoObserver, SubtaskSpan,
    TraceRecorder, WorkerMemory,
};
use marsc_runtime::plan::{ChunkId, OpArg, Plan, PlanOp, SubtaskId};
use proptest::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

fn options(workers: u32) -> ExecOptions {
    ExecOptions {
        workers,
        ..ExecOptions::default()
    }
}

fn run(plan: &Plan<Toy>, workers: u32) -> Result<ExecOutput<Vec<i64>>, ExecError> {
    execute(&Arc::new(plan.clone()), &options(workers), &mut NoObserver)
}

fn values(output: &ExecOutput<Vec<i64>>) -> Vec<(ChunkId, Vec<i64>)> {
    output
        .results
        .iter()
        .map(|(chunk, value)| (*chunk, (**value).clone()))
        .collect()
}

/// Runs `execute` on another thread and fails the test instead of hanging.
fn run_with_deadline(
    plan: Plan<Toy>,
    options: ExecOptions,
) -> Result<ExecOutput<Vec<i64>>, ExecError> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(execute(&Arc::new(plan), &options, &mut NoObserver));
    });
    receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("execute did not return within 30 s")
}

// ---------------------------------------------------------------- random DAGs

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The inline executor (a small plan on the caller's thread) gives the workers'
    /// values and counts every subtask once, on worker 0 (the caller's thread).
    #[test]
    fn inline_runs_give_the_workers_values(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
    ) {
        let plan = Arc::new(build_plan(&specs, &result_picks));
        let expected = run_sequential(&plan).expect("toy plans never fail");
        let options = ExecOptions { workers: 3, inline: true, ..ExecOptions::default() };
        let output = execute(&plan, &options, &mut NoObserver).expect("run succeeds");
        prop_assert_eq!(values(&output), expected);
        prop_assert_eq!(output.stats.subtasks_per_worker.clone(), vec![plan.subtasks.len() as u64, 0, 0]);
        prop_assert_eq!(output.stats.transfer_bytes, 0);
        prop_assert!(output.stats.peak_live_chunks <= u64::from(plan.num_chunks));
    }

    #[test]
    fn results_do_not_depend_on_workers_or_queue_depth(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        queue_depth in prop::option::of(1u32..5),
    ) {
        let plan = Arc::new(build_plan(&specs, &result_picks));
        let expected = run_sequential(&plan).expect("toy plans never fail");
        for workers in 1..=4 {
            let options = ExecOptions { workers, queue_depth, ..ExecOptions::default() };
            let output = execute(&plan, &options, &mut NoObserver).expect("run succeeds");
            prop_assert_eq!(values(&output), expected.clone());
            let stats = &output.stats;
            prop_assert_eq!(stats.subtasks, plan.subtasks.len() as u64);
            prop_assert_eq!(stats.subtasks_per_worker.len(), workers as usize);
            prop_assert_eq!(stats.subtasks_per_worker.iter().sum::<u64>(), stats.subtasks);
            prop_assert!(stats.peak_live_chunks >= 1);
            prop_assert!(stats.peak_live_chunks <= u64::from(plan.num_chunks));
            if workers == 1 {
                prop_assert_eq!(stats.transfer_bytes, 0);
            }
        }
    }
}

// ---------------------------------------------------------------- figures

/// Two workers, placement forced:
/// ```text
/// s0 @w0: c0 = [1, 2, 3]                  s1 @w1: c1 = [10, 20]
/// s2 @w1: c2 = c0 + c1     = [11, 22, 13]  (fetches c0: 24 bytes)
/// s3 @w1: c3 = 2 (c0 + c1) = [22, 44, 26]  (c0 is already there)
/// s4 @w0: c4 = sum(c2, c3) = [138]         (fetches c2 and c3: 48 bytes)
/// ```
/// (values from NumPy: `c0 + np.resize(c1, 3)`). Live chunks: c0 c1 → +c2 → +c3
/// (4 chunks, 24+16+24+24 = 88 bytes), then c0 c1 go; +c4, then c2 c3 go.
#[test]
fn two_worker_run_has_hand_checked_figures() {
    let mut b = PlanBuilder::new();
    let c0 = b.single(Toy::Const(vec![1, 2, 3]), &[], Some(0));
    let c1 = b.single(Toy::Const(vec![10, 20]), &[], Some(1));
    let c2 = b.single(Toy::Add, &[c0, c1], Some(1));
    let c3 = b.single(Toy::Scale(2), &[c0, c1], Some(1));
    let c4 = b.single(Toy::Sum, &[c2, c3], Some(0));
    b.result(c4);
    b.result(c2);
    let plan = Arc::new(b.finish());
    for queue_depth in [None, Some(1), Some(4)] {
        let options = ExecOptions {
            workers: 2,
            queue_depth,
            ..ExecOptions::default()
        };
        let output = execute(&plan, &options, &mut NoObserver).unwrap();
        assert_eq!(values(&output), [(c4, vec![138]), (c2, vec![11, 22, 13])]);
        let stats = &output.stats;
        assert_eq!(stats.subtasks, 5);
        assert_eq!(stats.workers, 2);
        assert_eq!(stats.subtasks_per_worker, [2, 3]);
        assert_eq!(stats.transfer_bytes, 72);
        assert_eq!(stats.peak_live_chunks, 4);
        assert_eq!(stats.peak_live_bytes, 88);
        assert_eq!(stats.spilled_bytes, 0);
        assert_eq!(stats.retries, 0);
    }
}

/// The same plan on one worker moves nothing.
#[test]
fn one_worker_transfers_nothing() {
    let mut b = PlanBuilder::new();
    let c0 = b.single(Toy::Const(vec![1, 2, 3]), &[], Some(0));
    let c1 = b.single(Toy::Const(vec![10, 20]), &[], Some(1));
    let c2 = b.single(Toy::Add, &[c0, c1], Some(1));
    b.result(c2);
    let output = run(&b.finish(), 1).unwrap();
    assert_eq!(output.stats.transfer_bytes, 0);
    assert_eq!(output.stats.subtasks_per_worker, [3]);
}

/// A chain where each link consumes the previous one: at most two links are live
/// at once, whatever the worker count.
#[test]
fn chain_frees_each_link_after_its_consumer() {
    let mut b = PlanBuilder::new();
    let mut previous = b.single(Toy::Const(vec![0; 4]), &[], None);
    for _ in 0..1000 {
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
        previous = b.subtask(ops, &[previous], &[1], 0, None)[0];
    }
    b.result(previous);
    let plan = b.finish();
    for workers in 1..=4 {
        let output = run(&plan, workers).unwrap();
        assert_eq!(values(&output), [(previous, vec![1000; 4])]);
        assert_eq!(output.stats.peak_live_chunks, 2);
        assert_eq!(output.stats.peak_live_bytes, 64);
    }
}

/// Chunks nobody consumes are released at once; results stay live until the end.
/// Live chunks are the results so far plus Consts whose Sum has not run, and each
/// completion adds one chunk before releasing one, so the peak is 10 or 11. Dead
/// chunks that were never released would push it to 20 or more.
#[test]
fn unconsumed_chunks_are_released_and_results_kept() {
    let mut b = PlanBuilder::new();
    for i in 0..10 {
        b.single(Toy::Const(vec![-1; 3]), &[], None);
        let input = b.single(Toy::Const(vec![i; 3]), &[], None);
        let result = b.single(Toy::Sum, &[input], None);
        b.result(result);
    }
    for workers in 1..=3 {
        let output = run(&b.plan, workers).unwrap();
        let sums: Vec<i64> = output.results.iter().map(|(_, v)| v[0]).collect();
        assert_eq!(sums, (0..10).map(|i| 3 * i).collect::<Vec<_>>());
        let peak = output.stats.peak_live_chunks;
        assert!((10..=11).contains(&peak), "peak {peak}");
    }
}

/// A subtask whose inputs live on both workers while both workers also need each
/// other's chunks: must not deadlock.
#[test]
fn crossing_inputs_do_not_deadlock() {
    let mut b = PlanBuilder::new();
    let mut left = b.single(Toy::Const(vec![1]), &[], Some(0));
    let mut right = b.single(Toy::Const(vec![2]), &[], Some(1));
    for _ in 0..200 {
        let new_left = b.single(Toy::Add, &[left, right], Some(1));
        let new_right = b.single(Toy::Add, &[right, left], Some(0));
        (left, right) = (new_left, new_right);
    }
    let sum = b.single(Toy::Sum, &[left, right], None);
    b.result(sum);
    let plan = b.finish();
    let expected = run_sequential(&plan).unwrap();
    let output = run_with_deadline(plan, options(2)).unwrap();
    assert_eq!(values(&output), expected);
    assert!(output.stats.transfer_bytes > 0);
}

#[test]
fn results_come_back_in_plan_order_with_duplicates() {
    let mut b = PlanBuilder::new();
    let c0 = b.single(Toy::Const(vec![5]), &[], None);
    let c1 = b.single(Toy::Const(vec![6]), &[], None);
    b.result(c1);
    b.result(c0);
    b.result(c1);
    let output = run(&b.finish(), 3).unwrap();
    assert_eq!(
        values(&output),
        [(c1, vec![6]), (c0, vec![5]), (c1, vec![6])]
    );
    assert_eq!(output.result(c0).map(|v| v[0]), Some(5));
}

#[test]
fn empty_plan_runs() {
    let output = run(&PlanBuilder::new().finish(), 2).unwrap();
    assert!(output.results.is_empty());
    assert_eq!(output.stats.subtasks, 0);
    assert_eq!(output.stats.subtasks_per_worker, [0, 0]);
}

// ---------------------------------------------------------------- errors

/// A wide plan with one failing subtask in the middle.
fn plan_with(failing: Toy, label: u32) -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let mut sums = Vec::new();
    for i in 0..500 {
        let c = b.single(Toy::Const(vec![i; 8]), &[], None);
        sums.push(b.single(Toy::Scale(2), &[c], None));
    }
    let bad = b.single(failing, &[sums[250]], None);
    b.plan.subtasks.last_mut().unwrap().label = label;
    sums.push(bad);
    let total = b.single(Toy::Sum, &sums, None);
    b.result(total);
    b.finish()
}

#[test]
fn a_failing_op_stops_the_job_with_its_label() {
    for workers in 1..=4 {
        let plan = plan_with(Toy::Fail("bad input".to_string()), 77);
        let error = run_with_deadline(plan, options(workers)).unwrap_err();
        match error {
            ExecError::SubtaskFailed {
                subtask,
                label,
                message,
                ..
            } => {
                assert_eq!(subtask, SubtaskId(1000));
                assert_eq!(label, 77);
                assert_eq!(message, "bad input");
            }
            other => panic!("unexpected error {other:?}"),
        }
    }
}

#[test]
fn inline_runs_report_failures_panics_and_cancellation() {
    let inline = ExecOptions {
        inline: true,
        ..options(2)
    };
    let error = run_with_deadline(
        plan_with(Toy::Fail("bad input".to_string()), 77),
        inline.clone(),
    )
    .unwrap_err();
    assert!(
        matches!(&error, ExecError::SubtaskFailed { subtask: SubtaskId(1000), label: 77, message, .. } if message == "bad input"),
        "{error:?}"
    );
    let error = run_with_deadline(plan_with(Toy::Panic, 5), inline.clone()).unwrap_err();
    assert!(
        matches!(&error, ExecError::SubtaskFailed { label: 5, message, .. } if message == "kernel panicked: boom"),
        "{error:?}"
    );
    let cancelled = ExecOptions {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..inline
    };
    let error = run_with_deadline(plan_with(Toy::Sum, 1), cancelled).unwrap_err();
    assert_eq!(error, ExecError::Cancelled);
}

#[test]
fn a_panicking_kernel_becomes_an_error() {
    for workers in 1..=3 {
        let plan = plan_with(Toy::Panic, 5);
        let error = run_with_deadline(plan, options(workers)).unwrap_err();
        let ExecError::SubtaskFailed { label, message, .. } = &error else {
            panic!("unexpected error {error:?}");
        };
        assert_eq!(*label, 5);
        assert_eq!(message, "kernel panicked: boom");
        assert!(error.to_string().contains("label 5"), "{error}");
    }
}

#[test]
fn a_failure_drops_queued_work_promptly() {
    // 400 slow subtasks (5 ms each, about 1 s per worker in total) behind an early
    // failure: the run must stop long before they would all have run.
    let mut b = PlanBuilder::new();
    let bad = b.single(Toy::Fail("early".to_string()), &[], None);
    b.plan.subtasks[0].priority = -1;
    let mut slow = vec![bad];
    for _ in 0..400 {
        slow.push(b.single(Toy::Sleep(5), &[], None));
    }
    let total = b.single(Toy::Sum, &slow, None);
    b.result(total);
    let started = Instant::now();
    let error = run_with_deadline(b.finish(), options(2)).unwrap_err();
    assert!(
        matches!(error, ExecError::SubtaskFailed { .. }),
        "{error:?}"
    );
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn cancel_flag_stops_the_run() {
    let mut b = PlanBuilder::new();
    let mut previous = b.single(Toy::Const(vec![1]), &[], None);
    for _ in 0..2000 {
        previous = b.single(Toy::Sleep(2), &[previous], None);
    }
    b.result(previous);
    let cancel = Arc::new(AtomicBool::new(false));
    let options = ExecOptions {
        workers: 2,
        cancel: Some(Arc::clone(&cancel)),
        ..ExecOptions::default()
    };
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        cancel.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let error = run_with_deadline(b.finish(), options).unwrap_err();
    let stopped = Instant::now();
    let cancelled_at = setter.join().unwrap();
    assert_eq!(error, ExecError::Cancelled);
    assert!(stopped - cancelled_at < Duration::from_millis(500));
}

#[test]
fn invalid_plans_and_options_are_rejected() {
    let mut b = PlanBuilder::new();
    let c0 = b.single(Toy::Const(vec![1]), &[], None);
    b.result(c0);
    let mut plan = b.finish();
    assert!(matches!(run(&plan, 0), Err(ExecError::InvalidOptions(_))));
    plan.subtasks[0].inputs.push(ChunkId(0));
    let error = run(&plan, 1).unwrap_err();
    assert_eq!(
        error,
        ExecError::InvalidPlan("st0: input c0 is not published by an earlier subtask".into())
    );
    plan.subtasks[0].inputs.clear();
    plan.results.push(ChunkId(7));
    assert!(matches!(run(&plan, 1), Err(ExecError::InvalidPlan(_))));
}

// ---------------------------------------------------------------- observers

struct PanickingObserver;

impl ExecObserver for PanickingObserver {
    fn on_subtask_done(&mut self, _done: u64, _total: u64) {
        panic!("observer bug");
    }
}

#[test]
fn a_panicking_observer_becomes_an_error_without_hanging() {
    let mut b = PlanBuilder::new();
    let mut previous = b.single(Toy::Const(vec![1]), &[], None);
    for _ in 0..100 {
        previous = b.single(Toy::Add, &[previous], None);
    }
    b.result(previous);
    let plan = b.finish();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(execute(
            &Arc::new(plan),
            &options(2),
            &mut PanickingObserver,
        ));
    });
    let outcome = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("no hang");
    let Err(ExecError::Internal(message)) = outcome else {
        panic!("unexpected outcome {outcome:?}");
    };
    assert_eq!(message, "the coordinator crashed: observer bug");
}

#[derive(Default)]
struct Progress {
    calls: Vec<(u64, u64)>,
}

impl ExecObserver for Progress {
    fn on_subtask_done(&mut self, done: u64, total: u64) {
        self.calls.push((done, total));
    }
}

#[test]
fn progress_and_chrome_trace() {
    let mut b = PlanBuilder::new();
    let mut chunks = Vec::new();
    for i in 0..50 {
        chunks.push(b.single(Toy::Const(vec![i]), &[], None));
    }
    let total = b.single(Toy::Sum, &chunks, None);
    b.result(total);
    let plan = b.finish();
    let mut progress = Progress::default();
    let mut trace = TraceRecorder::new();
    let output = execute(
        &Arc::new(plan),
        &options(3),
        &mut (&mut progress, &mut trace),
    )
    .unwrap();
    assert_eq!(values(&output), [(total, vec![1225])]);
    assert_eq!(progress.calls.last(), Some(&(51, 51)));
    assert!(progress.calls.windows(2).all(|w| w[0].0 <= w[1].0));

    let mut json = Vec::new();
    trace.write_chrome_trace(&mut json).unwrap();
    let trace: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let events = trace["traceEvents"].as_array().unwrap();
    let names: Vec<&str> = events
        .iter()
        .filter(|e| e["ph"] == "M")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["worker 0", "worker 1", "worker 2"]);
    let spans: Vec<&serde_json::Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(spans.len(), 51);
    let mut per_worker = [0u64; 3];
    for span in &spans {
        assert_eq!(span["pid"], 0);
        per_worker[span["tid"].as_u64().unwrap() as usize] += 1;
        assert!(span["dur"].as_f64().unwrap() >= 0.0);
        assert!(span["ts"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(per_worker.to_vec(), output.stats.subtasks_per_worker);
    let last = spans.iter().find(|s| s["args"]["subtask"] == 50).unwrap();
    assert_eq!(last["name"], "label 50");
}

/// Records what a dashboard shows: each subtask's span and each worker's memory.
#[derive(Default)]
struct Watcher {
    spans: Vec<SubtaskSpan>,
    memory: Vec<WorkerMemory>,
}

impl ExecObserver for Watcher {
    fn wants_spans(&self) -> bool {
        true
    }
    fn on_subtask_span(&mut self, span: &SubtaskSpan) {
        self.spans.push(*span);
    }
    fn on_worker_memory(&mut self, memory: &WorkerMemory) {
        self.memory.push(*memory);
    }
}

/// Threaded and inline runs alike give one span per subtask and each worker's
/// memory: held never above its peak, the last peak the run's figure.
#[test]
fn spans_and_worker_memory_reach_the_observer_threaded_and_inline() {
    let mut b = PlanBuilder::new();
    let chunks: Vec<ChunkId> = (0..20)
        .map(|i| b.single(Toy::Const(vec![i; 100]), &[], None))
        .collect();
    let total = b.single(Toy::Sum, &chunks, None);
    b.result(total);
    let plan = Arc::new(b.finish());
    for inline in [false, true] {
        let options = ExecOptions {
            inline,
            ..options(2)
        };
        let mut watcher = Watcher::default();
        let output = execute(&plan, &options, &mut watcher).unwrap();
        let mut seen: Vec<u32> = watcher.spans.iter().map(|span| span.subtask.0).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..21).collect::<Vec<u32>>(), "inline {inline}");
        assert!(watcher.spans.iter().all(|s| s.start_nanos <= s.end_nanos));
        assert!(!watcher.memory.is_empty(), "inline {inline}");
        for memory in &watcher.memory {
            assert!(memory.held_bytes <= memory.peak_bytes, "{memory:?}");
            assert_eq!(memory.spilled_bytes, 0);
        }
        for worker in 0..2u32 {
            if let Some(last) = watcher.memory.iter().rev().find(|m| m.worker == worker) {
                assert_eq!(
                    last.peak_bytes, output.stats.peak_worker_bytes[worker as usize],
                    "inline {inline}"
                );
            }
        }
        assert!(watcher.memory.iter().any(|m| m.peak_bytes >= 800));
    }
}
