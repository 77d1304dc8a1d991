//! The cache-aware planner: what is planned with an empty, a full and a partial
//! cache, the budget for variables, and that cached values give the same results.

use super::*;
use crate::driver::{self, Options};
use crate::run::output::tensor;

/// Runs on `count` workers (the tests load no files, so no tileables explain errors).
fn workers(count: u32) -> RunOptions {
    RunOptions {
        workers: count,
        ..RunOptions::default()
    }
}

fn chunk_graph(text: &str) -> ChunkGraph {
    driver::chunk(text, &Options::default())
        .expect("the script compiles")
        .1
}

/// The step printed by the `index`th output.
fn printed_step(chunks: &ChunkGraph, index: usize) -> StepId {
    match &chunks.outputs[index] {
        ChunkOutput::Print { items, .. } => items[0].printed_step().expect("a tensor item"),
        ChunkOutput::Save { .. } => panic!("a save"),
    }
}

fn run(chunks: &ChunkGraph, keep: &[StepId], cache: &mut ChunkCache) -> (Values, usize) {
    let planned = plan_with_cache(
        chunks,
        chunks.outputs.len(),
        keep,
        cache,
        &Options::default(),
    )
    .expect("plans");
    planned.plan.check().expect("a valid plan");
    let subtasks = planned.plan.subtasks.len();
    let (values, _) =
        run_with_cache(chunks, &TileableGraph::new(), planned, &workers(2), cache).expect("runs");
    (values, subtasks)
}

#[test]
fn a_cached_output_plans_nothing_and_shows_the_same_value() {
    let chunks = chunk_graph("x = mt.arange(6, chunks=2)\nprint((x * 3).sum())\n");
    let mut cache = ChunkCache::default();
    let (first, subtasks) = run(&chunks, &[], &mut cache);
    // Fused as a script is: 3 of (arange, multiply, partial sum), the constant 3
    // (read by all three), and the combine with its finish.
    assert_eq!(subtasks, 5);
    let (second, subtasks) = run(&chunks, &[], &mut cache);
    assert_eq!(subtasks, 0);
    let step = printed_step(&chunks, 0);
    let shown = |values: &Values| tensor(&chunks, values, step).expect("assembled");
    assert_eq!(shown(&first), shown(&second));
    assert_eq!(
        format!("{:?}", shown(&second).get_flat(0)),
        "Some(Int64(45))"
    );
}

#[test]
fn cached_inputs_become_local_ops_of_their_readers() {
    let text = "x = mt.arange(4, chunks=2)\nprint(x)\nprint(x + 1)\n";
    let chunks = chunk_graph(text);
    let mut cache = ChunkCache::default();
    let x = printed_step(&chunks, 0);
    let planned = plan_with_cache(&chunks, 1, &[], &cache, &Options::default()).expect("plans");
    let (_, _) = run_with_cache(
        &chunks,
        &TileableGraph::new(),
        planned,
        &workers(1),
        &mut cache,
    )
    .expect("runs");
    assert_eq!(cache.len(), chunks.step(x).num_chunks as usize);
    // Only the constant and the two additions run; each addition reads its x chunk
    // from the cache inside its own subtask.
    let planned = plan_with_cache(&chunks, 2, &[], &cache, &Options::default()).expect("plans");
    assert_eq!(planned.plan.subtasks.len(), 3);
    let cached_ops = planned
        .plan
        .subtasks
        .iter()
        .flat_map(|subtask| subtask.ops.iter())
        .filter(|op| matches!(op.kernel, SessionKernel::Cached(_)))
        .count();
    assert_eq!(cached_ops, 2);
    planned.plan.check().expect("a valid plan");
    let (values, _) = run_with_cache(
        &chunks,
        &TileableGraph::new(),
        planned,
        &workers(2),
        &mut cache,
    )
    .expect("runs");
    let shown = tensor(&chunks, &values, printed_step(&chunks, 1)).expect("assembled");
    assert_eq!(marsc_runtime::format::format_array(&shown), "[1 2 3 4]");
}

#[test]
fn variables_are_kept_only_within_the_budget() {
    let chunks = chunk_graph("x = mt.arange(4, chunks=2)\nprint(x.sum())\n");
    // `x` is the first tileable (the arange).
    let x = chunks.tileable_steps[0].expect("x is tiled");
    let mut small = ChunkCache::with_budget(8);
    let (_, _) = run(&chunks, &[x], &mut small);
    assert_eq!(small.len(), 1, "only the 8-byte sum fits");
    let mut large = ChunkCache::default();
    let (_, _) = run(&chunks, &[x], &mut large);
    assert_eq!(large.len(), 3, "the sum and both chunks of x");
}

/// The step of the first input of `step`'s first chunk (a variable the step reads).
fn input_step(chunks: &ChunkGraph, step: StepId) -> StepId {
    let chunk = chunks.step(step).first_chunk;
    chunks.chunk(chunks.inputs(chunk)[0]).step
}

fn count_ops(planned: &SessionPlan, wanted: fn(&SessionKernel) -> bool) -> usize {
    let ops = planned
        .plan
        .subtasks
        .iter()
        .flat_map(|subtask| subtask.ops.iter());
    ops.filter(|op| wanted(&op.kernel)).count()
}

fn is_cached(kernel: &SessionKernel) -> bool {
    matches!(kernel, SessionKernel::Cached(_))
}

fn is_jit(kernel: &SessionKernel) -> bool {
    matches!(kernel, SessionKernel::Run(Kernel::Jit(_)))
}

#[test]
fn an_element_wise_expression_runs_jit_kernels_unless_no_jit() {
    let chunks = chunk_graph("x = mt.arange(10, chunks=5)\nprint(x * 2 + 1)\n");
    let cache = ChunkCache::default();
    let jit = plan_with_cache(&chunks, 1, &[], &cache, &Options::default()).expect("plans");
    assert!(jit.jit.kernels > 0);
    // The constants (each read by both chunks), then one subtask per chunk of size 5:
    // its arange and both operations fused into one kernel.
    assert_eq!(jit.plan.subtasks.len(), 2 + 2);
    assert_eq!(count_ops(&jit, is_jit), 2);
    let no_jit = Options {
        jit: false,
        ..Options::default()
    };
    let interpreted = plan_with_cache(&chunks, 1, &[], &cache, &no_jit).expect("plans");
    assert_eq!(interpreted.jit.kernels, 0);
    assert_eq!(count_ops(&interpreted, is_jit), 0);
}

#[test]
fn a_fused_expression_reads_a_cached_variable_instead_of_recomputing_it() {
    let chunks = chunk_graph("x = mt.arange(4, chunks=2)\nprint(x)\nprint((x * 2 + 1).sum())\n");
    let x = printed_step(&chunks, 0);
    // Values no recomputation of `x` could give: the result shows they were read.
    let mut cache = ChunkCache::default();
    for (chunk, values) in chunks.step(x).chunk_ids().zip([[10i64, 20], [30, 40]]) {
        let array = ndarray::ArrayD::from_shape_vec(vec![2], values.to_vec()).expect("a shape");
        let value = ChunkValue::Array(marsc_runtime::ArrayData::Int64(array));
        assert!(cache.insert(chunks.chunk_key(chunk), Arc::new(value)));
    }
    let planned = plan_with_cache(&chunks, 2, &[], &cache, &Options::default()).expect("plans");
    assert_eq!(count_ops(&planned, is_cached), 2);
    assert!(planned.jit.kernels > 0);
    // The constants 2 and 1, a fused (multiply, add, partial sum) per chunk of x, and
    // the combine with its finish.
    assert_eq!(planned.plan.subtasks.len(), 2 + 2 + 1);
    planned.plan.check().expect("a valid plan");
    let (values, _) = run_with_cache(
        &chunks,
        &TileableGraph::new(),
        planned,
        &workers(2),
        &mut cache,
    )
    .expect("runs");
    let shown = tensor(&chunks, &values, printed_step(&chunks, 1)).expect("assembled");
    // 2 * (10 + 20 + 30 + 40) + 4, where the real x would give 16.
    assert_eq!(format!("{:?}", shown.get_flat(0)), "Some(Int64(204))");
}

#[test]
fn a_variable_computed_inside_a_fused_chain_is_cached_and_reused() {
    let text = "x = mt.arange(10, chunks=5)\ny = x * 2\nprint((y + 1).sum())\nprint(y * 3)\n";
    let chunks = chunk_graph(text);
    let y = input_step(&chunks, printed_step(&chunks, 1));
    let mut cache = ChunkCache::default();
    let planned = plan_with_cache(&chunks, 1, &[y], &cache, &Options::default()).expect("plans");
    assert!(planned.jit.kernels > 0);
    // y is published by the fused (arange, multiply, add, partial sum) of each chunk.
    assert_eq!(planned.plan.results.len(), 1 + 2);
    let (values, _) = run_with_cache(
        &chunks,
        &TileableGraph::new(),
        planned,
        &workers(2),
        &mut cache,
    )
    .expect("runs");
    let sum = tensor(&chunks, &values, printed_step(&chunks, 0)).expect("assembled");
    // NumPy: (np.arange(10) * 2 + 1).sum() == 100
    assert_eq!(format!("{:?}", sum.get_flat(0)), "Some(Int64(100))");
    for chunk in chunks.step(y).chunk_ids() {
        assert!(cache.get(&chunks.chunk_key(chunk)).is_some(), "{chunk}");
    }
    // The next statement reads every chunk of y from the cache: only the constant 3
    // and the multiplications run.
    let planned = plan_with_cache(&chunks, 2, &[], &cache, &Options::default()).expect("plans");
    assert_eq!(count_ops(&planned, is_cached), 2);
    assert_eq!(planned.plan.subtasks.len(), 1 + 2);
    let (values, _) = run_with_cache(
        &chunks,
        &TileableGraph::new(),
        planned,
        &workers(2),
        &mut cache,
    )
    .expect("runs");
    let shown = tensor(&chunks, &values, printed_step(&chunks, 1)).expect("assembled");
    // NumPy: np.arange(10) * 2 * 3
    assert_eq!(
        marsc_runtime::format::format_array(&shown),
        "[ 0  6 12 18 24 30 36 42 48 54]"
    );
}
