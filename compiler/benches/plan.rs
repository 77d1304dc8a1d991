//! Planning throughput: `ones((1000, 1000), chunks=1)` → `(x + 1).sum()`, about 3.3
//! million chunks. Prints the time per chunk of forming subtasks, assigning
//! priorities and building the runtime plan once before divan's timings
//! (`cargo bench -p marsc-compiler --bench plan`). Planning runs once per chunk, so it must
//! stay well under a second for a million chunks.

mod support;

use marsc::driver::{self, Options};
use marsc::fuse::form_subtasks;
use marsc::plan::build_plan;
use marsc::subtask::{schedule_subtasks, AssignPolicy, OrderPolicy};
use std::time::Instant;
use support::cpu_nanos;

const SCRIPT: &str = "import mars.tensor as mt\n\
                      x = mt.ones((1000, 1000), chunks=1)\n\
                      print((x + 1).sum())\n";

fn main() {
    report_per_chunk_figures();
    divan::main();
}

fn chunk_graph() -> marsc::chunk::ChunkGraph {
    match driver::chunk(SCRIPT, &Options::default()) {
        Ok((_, chunks)) => chunks,
        Err(error) => panic!("the benchmark script does not compile: {error:?}"),
    }
}

/// The default scheduling pass (priority order; no worker count, so no assignment).
fn schedule(subtasks: &mut marsc::subtask::SubtaskGraph, chunks: &marsc::chunk::ChunkGraph) {
    schedule_subtasks(
        subtasks,
        chunks,
        OrderPolicy::Priority,
        AssignPolicy::Bfs,
        None,
    )
    .expect("a tiled graph is a DAG");
}

fn report_per_chunk_figures() {
    let chunks = chunk_graph();
    let wall = Instant::now();
    let start = cpu_nanos(wall);
    let mut subtasks = form_subtasks(&chunks);
    let formed = cpu_nanos(wall);
    schedule(&mut subtasks, &chunks);
    let prioritized = cpu_nanos(wall);
    let plan = build_plan(&subtasks, &chunks);
    let planned = cpu_nanos(wall);
    let per_chunk = |nanos: u128| nanos as f64 / chunks.num_chunks() as f64;
    println!(
        "plan: {} chunks -> {:?} subtasks; CPU time per chunk: form {:.1} ns, priority \
         {:.1} ns, plan {:.1} ns; total {:.3}s",
        chunks.num_chunks(),
        plan.as_ref().map(|plan| plan.subtasks.len()),
        per_chunk(formed - start),
        per_chunk(prioritized - formed),
        per_chunk(planned - prioritized),
        (planned - start) as f64 / 1e9
    );
    // Dropping the plan is not planning; keep it out of the figures above.
    drop(plan);
}

#[divan::bench(sample_count = 3)]
fn plan_million_chunks(bencher: divan::Bencher) {
    let chunks = chunk_graph();
    bencher.bench(|| {
        let mut subtasks = form_subtasks(&chunks);
        schedule(&mut subtasks, &chunks);
        build_plan(&subtasks, &chunks).map(|plan| plan.subtasks.len())
    });
}
