//! Bounded memory: plans over data ten times the memory limit complete with the
//! same results, spill, and keep the live bytes within the limit plus one subtask's
//! working set; spill files never outlive the run; `check_memory` refuses a subtask
//! too large for the limit.

mod exec_support;

use exec_support::random_dag::{build_plan, subtask_spec};
use exec_support::{
    chunk_bytes, execute_within, largest_working_set, run_sequential, values, PlanBuilder, Toy,
};
use marsc_runtime::exec::{check_memory, execute, ChunkKernel, ExecError, ExecOptions, NoObserver};
use marsc_runtime::plan::{ChunkId, OpArg, Plan, PlanOp, Subtask, SubtaskId};
use proptest::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// Elements per chunk in the large plans: 4 KiB chunks.
const LEN: usize = 512;
const CHUNK_BYTES: u64 = LEN as u64 * 8;

/// A chunk whose elements tell where they came from.
fn leaf(i: usize) -> Toy {
    Toy::Const((0..LEN as i64).map(|j| i as i64 * 10_000 + j).collect())
}

/// `leaves` chunks summed element-wise by a binary tree of `Add`s. The builder
/// numbers all leaves first, so they are all made before any is consumed.
fn tree(leaves: usize) -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let mut level: Vec<ChunkId> = (0..leaves).map(|i| b.single(leaf(i), &[], None)).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| b.single(Toy::Add, pair, None))
            .collect();
    }
    b.result(level[0]);
    b.finish()
}

/// `x + sum(x)` for every chunk of x, the shape of a standardize: each chunk is
/// read twice, by the reduction early and by the element-wise op at the end, and
/// every output is a result (as large as the input).
fn standardize(chunks: usize) -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let xs: Vec<ChunkId> = (0..chunks).map(|i| b.single(leaf(i), &[], None)).collect();
    let partials: Vec<ChunkId> = xs.iter().map(|&x| b.single(Toy::Sum, &[x], None)).collect();
    let total = b.single(Toy::Sum, &partials, None);
    for &x in &xs {
        let y = b.single(Toy::Add, &[x, total], None);
        b.result(y);
    }
    b.finish()
}

/// A chain `acc = acc + x[i]` whose inputs x are all made first.
fn chain(links: usize) -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let xs: Vec<ChunkId> = (0..links).map(|i| b.single(leaf(i), &[], None)).collect();
    let mut acc = xs[0];
    for &x in &xs[1..] {
        acc = b.single(Toy::Add, &[acc, x], None);
    }
    b.result(acc);
    b.finish()
}

fn limited(workers: u32, limit: u64, spill_dir: &Path) -> ExecOptions {
    ExecOptions {
        workers,
        memory_limit: Some(limit),
        spill_dir: Some(spill_dir.to_path_buf()),
        ..ExecOptions::default()
    }
}

fn assert_empty(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert!(
        left.is_empty(),
        "left behind in {}: {left:?}",
        dir.display()
    );
}

/// Runs `plan` (holding ten times `limit` or more) under the limit with 1 to 3
/// workers, with and without projected chunk sizes, and checks results, spilling,
/// the peak and the clean-up. (Chunk sizes are uniform enough here for the learnt
/// estimates to be right.)
fn check_bounded_run(plan: &Plan<Toy>, limit: u64) {
    let expected = run_sequential(plan).unwrap();
    let working_set = largest_working_set(plan);
    let spill_dir = tempfile::tempdir().unwrap();
    for (workers, projected) in [(1, false), (2, false), (3, false), (1, true), (3, true)] {
        let options = ExecOptions {
            projected_chunk_bytes: projected.then(|| chunk_bytes(plan)),
            ..limited(workers, limit, spill_dir.path())
        };
        let output = execute_within(60, plan, &options).unwrap();
        assert_eq!(values(&output), expected, "{workers} workers");
        let stats = &output.stats;
        assert!(stats.spilled_bytes > 0, "{workers} workers: {stats}");
        assert!(
            stats.peak_live_bytes <= limit + working_set,
            "{workers} workers: peak {} > {limit} + {working_set}",
            stats.peak_live_bytes
        );
        for &peak in &stats.peak_worker_bytes {
            assert!(peak <= limit + working_set, "{workers} workers: {stats}");
        }
        assert_empty(spill_dir.path());
    }
}

#[test]
fn a_tree_over_ten_times_the_limit_stays_within_it() {
    let plan = tree(64);
    check_bounded_run(&plan, 64 * CHUNK_BYTES / 10);
}

#[test]
fn a_standardize_over_ten_times_the_limit_stays_within_it() {
    let plan = standardize(40);
    check_bounded_run(&plan, 40 * CHUNK_BYTES / 10);
}

#[test]
fn a_chain_over_ten_times_the_limit_stays_within_it() {
    let plan = chain(40);
    check_bounded_run(&plan, 40 * CHUNK_BYTES / 10);
}

/// Four workers in two processes of two, each with the limit: the tree spills and
/// every worker stays within its process's limit plus one working set.
#[test]
fn a_tree_stays_within_the_limit_of_each_process() {
    let plan = tree(64);
    let limit = 64 * CHUNK_BYTES / 10;
    let expected = run_sequential(&plan).unwrap();
    let working_set = largest_working_set(&plan);
    let spill_dir = tempfile::tempdir().unwrap();
    for projected in [false, true] {
        let options = ExecOptions {
            workers_per_process: Some(2),
            projected_chunk_bytes: projected.then(|| chunk_bytes(&plan)),
            ..limited(4, limit, spill_dir.path())
        };
        let output = execute_within(60, &plan, &options).unwrap();
        assert_eq!(values(&output), expected);
        let stats = &output.stats;
        assert!(stats.spilled_bytes > 0, "{stats}");
        assert!(
            stats.peak_live_bytes <= 2 * (limit + working_set),
            "{stats}"
        );
        for &peak in &stats.peak_worker_bytes {
            assert!(peak <= limit + working_set, "{stats}");
        }
        assert_empty(spill_dir.path());
    }
}

/// Without a limit the same tree holds most leaves at once (all are made before
/// any `Add`, though a few `Add`s may run before the last leaves are reported):
/// the limit is what bounds the runs above.
#[test]
fn without_a_limit_nothing_spills_and_the_peak_is_the_data() {
    let plan = tree(64);
    let spill_dir = tempfile::tempdir().unwrap();
    let options = ExecOptions {
        workers: 2,
        spill_dir: Some(spill_dir.path().to_path_buf()),
        ..ExecOptions::default()
    };
    let output = execute_within(60, &plan, &options).unwrap();
    assert_eq!(output.stats.spilled_bytes, 0);
    let limit_above = 64 * CHUNK_BYTES / 10;
    assert!(output.stats.peak_live_bytes >= 32 * CHUNK_BYTES);
    assert!(output.stats.peak_live_bytes > 4 * limit_above);
    assert_empty(spill_dir.path());
}

/// A limit of 0 makes every chunk go to disk between uses; a limit that holds
/// everything spills nothing.
#[test]
fn extreme_limits_still_give_the_results() {
    let plan = standardize(8);
    let expected = run_sequential(&plan).unwrap();
    let spill_dir = tempfile::tempdir().unwrap();
    for workers in [1, 3] {
        let output = execute_within(60, &plan, &limited(workers, 0, spill_dir.path())).unwrap();
        assert_eq!(values(&output), expected);
        assert!(output.stats.spilled_bytes >= 8 * CHUNK_BYTES);
        let output =
            execute_within(60, &plan, &limited(workers, u64::MAX, spill_dir.path())).unwrap();
        assert_eq!(values(&output), expected);
        assert_eq!(output.stats.spilled_bytes, 0);
    }
    assert_empty(spill_dir.path());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// With the chunk sizes projected, the peak bound holds for any plan.
    #[test]
    fn any_plan_stays_within_the_limit_plus_one_working_set(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        limit in prop::sample::select(vec![0u64, 16, 64, 256, 4096]),
        workers in 1u32..4,
    ) {
        let plan = build_plan(&specs, &result_picks);
        let expected = run_sequential(&plan).expect("toy plans never fail");
        let spill_dir = tempfile::tempdir().unwrap();
        let options = ExecOptions {
            projected_chunk_bytes: Some(chunk_bytes(&plan)),
            ..limited(workers, limit, spill_dir.path())
        };
        let output = execute_within(60, &plan, &options).expect("run succeeds");
        prop_assert_eq!(values(&output), expected);
        prop_assert!(output.stats.peak_live_bytes <= limit + largest_working_set(&plan));
        prop_assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
    }

    /// Workers in several processes (MPI ranks) have the limit each: the results
    /// are right and the live bytes stay within the processes' limits together
    /// (each plus one working set).
    #[test]
    fn any_plan_stays_within_the_limit_of_each_process(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        limit in prop::sample::select(vec![0u64, 16, 64, 256, 4096]),
        (workers, per_process) in prop::sample::select(vec![(2u32, 1u32), (4, 2), (3, 1), (5, 2)]),
        projected in any::<bool>(),
    ) {
        let plan = build_plan(&specs, &result_picks);
        let expected = run_sequential(&plan).expect("toy plans never fail");
        let spill_dir = tempfile::tempdir().unwrap();
        let options = ExecOptions {
            workers_per_process: Some(per_process),
            projected_chunk_bytes: projected.then(|| chunk_bytes(&plan)),
            ..limited(workers, limit, spill_dir.path())
        };
        let output = execute_within(60, &plan, &options).expect("run succeeds");
        prop_assert_eq!(values(&output), expected);
        if projected {
            let processes = u64::from(workers.div_ceil(per_process));
            let bound = processes * (limit + largest_working_set(&plan));
            prop_assert!(output.stats.peak_live_bytes <= bound);
        }
        prop_assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
    }

    /// With learnt sizes only, the results are still right whatever the limit.
    #[test]
    fn results_do_not_depend_on_the_memory_limit(
        specs in prop::collection::vec(subtask_spec(), 1..40),
        result_picks in prop::collection::vec(any::<usize>(), 1..6),
        limit in prop::sample::select(vec![0u64, 16, 64, 256, 4096]),
        workers in 1u32..4,
    ) {
        let plan = build_plan(&specs, &result_picks);
        let expected = run_sequential(&plan).expect("toy plans never fail");
        let spill_dir = tempfile::tempdir().unwrap();
        let output = execute_within(60, &plan, &limited(workers, limit, spill_dir.path()))
            .expect("run succeeds");
        prop_assert_eq!(values(&output), expected);
        prop_assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
    }
}

// ---------------------------------------------------------------- check_memory

/// s0: c0 = 100 B; s1: c1 = 50 B; s2: c2 = f(c0, c0, c1) = 200 B.
/// Projected: s0 100, s1 50, s2 100 + 50 + 200 = 350 (c0 counted once).
#[test]
fn check_memory_refuses_the_first_subtask_too_large() {
    let mut b = PlanBuilder::new();
    let c0 = b.single(Toy::Const(vec![0; 1]), &[], None);
    let c1 = b.single(Toy::Const(vec![0; 1]), &[], None);
    let c2 = b.single(Toy::Add, &[c0, c0, c1], None);
    b.result(c2);
    let plan = b.finish();
    let estimate = |chunk: ChunkId| [100, 50, 200][chunk.index()];
    assert_eq!(check_memory(&plan, 350, estimate), Ok(()));
    assert_eq!(check_memory(&plan, 349, estimate), Err((SubtaskId(2), 350)));
    assert_eq!(check_memory(&plan, 99, estimate), Err((SubtaskId(0), 100)));
    assert_eq!(check_memory(&plan, 0, |_| 0), Ok(()));
    assert_eq!(
        check_memory(&plan, 10, |_| u64::MAX),
        Err((SubtaskId(0), u64::MAX))
    );
}

// ---------------------------------------------------------------- unspillable values

/// A kernel whose values cannot be spilled (the trait's default).
#[derive(Clone, Debug, PartialEq)]
struct Bytes(usize);

impl ChunkKernel for Bytes {
    type Value = Vec<u8>;
    type Error = String;

    fn run(&self, args: &[&Vec<u8>]) -> Result<Vec<u8>, String> {
        let extra: usize = args.iter().map(|a| a.len()).sum();
        Ok(vec![1; self.0 + extra])
    }

    fn nbytes(value: &Vec<u8>) -> usize {
        value.len()
    }
}

fn bytes_plan() -> Plan<Bytes> {
    let source = |size| Subtask {
        ops: vec![PlanOp {
            kernel: Bytes(size),
            args: Default::default(),
        }]
        .into(),
        inputs: Default::default(),
        outputs: [(0, ChunkId(size as u32 / 1000 - 1))].into_iter().collect(),
        priority: 0,
        worker: None,
        label: 0,
    };
    let join = Subtask {
        ops: vec![PlanOp {
            kernel: Bytes(0),
            args: [OpArg::Input(0), OpArg::Input(1)].into_iter().collect(),
        }]
        .into(),
        inputs: [ChunkId(0), ChunkId(1)].into_iter().collect(),
        outputs: [(0, ChunkId(2))].into_iter().collect(),
        priority: 0,
        worker: None,
        label: 9,
    };
    Plan {
        subtasks: vec![source(1000), source(2000), join],
        num_chunks: 3,
        results: vec![ChunkId(2)],
    }
}

#[test]
fn a_value_type_that_cannot_spill_is_a_clear_error() {
    let plan = Arc::new(bytes_plan());
    let spill_dir = tempfile::tempdir().unwrap();
    let options = ExecOptions {
        workers: 1,
        memory_limit: Some(1500),
        spill_dir: Some(spill_dir.path().to_path_buf()),
        ..ExecOptions::default()
    };
    let error = execute(&plan, &options, &mut NoObserver).unwrap_err();
    assert!(
        error.to_string().contains("not supported yet: spilling"),
        "{error}"
    );
    assert_empty(spill_dir.path());
    // The same plan fits in a larger limit and never needs to spill.
    let roomy = ExecOptions {
        memory_limit: Some(10_000),
        ..options
    };
    let output = execute(&plan, &roomy, &mut NoObserver).unwrap();
    assert_eq!(output.results[0].1.len(), 3000);
}

#[test]
fn projections_of_the_wrong_length_are_an_invalid_option() {
    let plan = tree(2);
    let options = ExecOptions {
        memory_limit: Some(1),
        projected_chunk_bytes: Some(vec![8u64; 2].into()),
        ..ExecOptions::default()
    };
    let error = execute(&Arc::new(plan), &options, &mut NoObserver).unwrap_err();
    assert_eq!(
        error,
        ExecError::InvalidOptions("projected_chunk_bytes has 2 entries for 3 chunks".into())
    );
}

#[test]
fn a_spill_directory_that_cannot_be_made_is_an_invalid_option() {
    let plan = tree(2);
    let options = ExecOptions {
        memory_limit: Some(1),
        spill_dir: Some("/nonexistent/marsc/spill".into()),
        ..ExecOptions::default()
    };
    let error = execute(&Arc::new(plan), &options, &mut NoObserver).unwrap_err();
    assert!(matches!(error, ExecError::InvalidOptions(_)), "{error:?}");
}
