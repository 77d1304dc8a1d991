//! Planning throughput: `ones((1000, 1000), chunks=1)` → `(x + 1).sum()`, about 3.3
//! million chunks. Prints the time per chunk of forming subtasks, assigning
//! priorities and building the runtime plan once before divan's timings
//! (`cargo bench -p marsc --bench plan`). Planning runs once per chunk, so it must
//! stay well under a second for a million chunks.

use marsc::driver::{self, Options};
use marsc::plan::build_plan;
use marsc::subtask::{assign_priority, form_subtasks};
use std::time::Instant;

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

fn report_per_chunk_figures() {
    let chunks = chunk_graph();
    let start = Instant::now();
    let mut subtasks = form_subtasks(&chunks);
    let formed = start.elapsed();
    assign_priority(&mut subtasks, &chunks);
    let prioritized = start.elapsed();
    let plan = build_plan(&subtasks, &chunks).map(|plan| plan.subtasks.len());
    let planned = start.elapsed();
    let per_chunk = |nanos: u128| nanos as f64 / chunks.num_chunks() as f64;
    println!(
        "plan: {} chunks -> {:?} subtasks; form {:.1} ns/chunk, priority {:.1} ns/chunk, \
         plan {:.1} ns/chunk, total {:.3}s",
        chunks.num_chunks(),
        plan,
        per_chunk(formed.as_nanos()),
        per_chunk((prioritized - formed).as_nanos()),
        per_chunk((planned - prioritized).as_nanos()),
        planned.as_secs_f64()
    );
}

#[divan::bench(sample_count = 3)]
fn plan_million_chunks(bencher: divan::Bencher) {
    let chunks = chunk_graph();
    bencher.bench(|| {
        let mut subtasks = form_subtasks(&chunks);
        assign_priority(&mut subtasks, &chunks);
        build_plan(&subtasks, &chunks).map(|plan| plan.subtasks.len())
    });
}
