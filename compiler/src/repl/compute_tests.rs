//! The cache-aware planner: what is planned with an empty, a full and a partial
//! cache, the budget for variables, and that cached values give the same results.

use super::*;
use crate::driver::{self, Options};
use crate::run::output::tensor;

fn chunk_graph(text: &str) -> ChunkGraph {
    driver::chunk(text, &Options::default())
        .expect("the script compiles")
        .1
}

/// The step printed by the `index`th output.
fn printed_step(chunks: &ChunkGraph, index: usize) -> StepId {
    match &chunks.outputs[index] {
        ChunkOutput::Print { items, .. } => match items[0] {
            PrintItem::Tensor(step) => step,
            PrintItem::Text(_) => panic!("a text item"),
        },
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
    planned.plan.verify().expect("a valid plan");
    let subtasks = planned.plan.subtasks.len();
    let (values, _) = run_with_cache(chunks, planned, 2, Arc::default(), cache).expect("runs");
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
    let (_, _) = run_with_cache(&chunks, planned, 1, Arc::default(), &mut cache).expect("runs");
    assert_eq!(cache.len(), chunks.step(x).num_chunks as usize);
    // Only the constant and the two additions run; each addition reads its x chunk
    // from the cache inside its own subtask.
    let planned = plan_with_cache(&chunks, 2, &[], &cache, &Options::default()).expect("plans");
    assert_eq!(planned.plan.subtasks.len(), 3);
    let cached_ops = planned
        .plan
        .subtasks
        .iter()
        .flat_map(|subtask| &subtask.ops)
        .filter(|op| matches!(op.kernel, SessionKernel::Cached(_)))
        .count();
    assert_eq!(cached_ops, 2);
    planned.plan.verify().expect("a valid plan");
    let (values, _) =
        run_with_cache(&chunks, planned, 2, Arc::default(), &mut cache).expect("runs");
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
