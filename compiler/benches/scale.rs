//! Each compile pass on its own at 1 M and 10 M chunks (issue 24's graph:
//! `x = ones((1000, n), chunks=1)` → `(x + 1).sum()`, 3.3 chunks per element): tile,
//! fuse, schedule, plan and the JIT pass. Prints the CPU time per chunk of each pass
//! once per size, then divan's timings of each pass alone (its input is built outside
//! the timing). Run: `cargo bench -p marsc-compiler --bench scale` (about 6 GB of memory at
//! 10 M chunks, several minutes); `MARSC_SCALE_SIZES=1` for the 1 M graph only.
//!
//! The whole process (parse to exit, and the run) is measured by
//! `bench/chunks_scale.py`, which also reports peak memory per chunk.

mod support;

use marsc::chunk::ChunkGraph;
use marsc::driver::{self, Options};
use marsc::fuse::form_subtasks;
use marsc::plan::build_plan;
use marsc::plan::jit::compile_kernels;
use marsc::subtask::{schedule_subtasks, AssignPolicy, OrderPolicy, SubtaskGraph};
use marsc::tileable::TileableGraph;
use std::time::Instant;
use support::cpu_nanos;

/// Millions of chunks of the two graphs, and the column count `n` that gives them.
const SIZES: [usize; 2] = [1, 10];

fn columns(millions: usize) -> usize {
    // 1000 × n elements, 3.33 chunks per element (ones, add, the sum's tree).
    millions * 300
}

fn script(millions: usize) -> String {
    format!(
        "import mars.tensor as mt\nx = mt.ones((1000, {}), chunks=1)\nprint((x + 1).sum())\n",
        columns(millions)
    )
}

/// The sizes to run: all, or those listed in `MARSC_SCALE_SIZES` (e.g. `1`).
fn sizes() -> Vec<usize> {
    match std::env::var("MARSC_SCALE_SIZES") {
        Ok(list) => list
            .split(',')
            .filter_map(|size| size.trim().parse().ok())
            .filter(|size| SIZES.contains(size))
            .collect(),
        Err(_) => SIZES.to_vec(),
    }
}

fn main() {
    for millions in sizes() {
        report_per_chunk_figures(millions);
    }
    divan::main();
}

fn tileable_graph(millions: usize) -> TileableGraph {
    match driver::tileable(&script(millions), &Options::default()) {
        Ok((_, graph)) => graph,
        Err(error) => panic!("the benchmark script does not compile: {error:?}"),
    }
}

fn chunk_graph(millions: usize) -> ChunkGraph {
    driver::tile_graph(&tileable_graph(millions)).expect("the graph tiles")
}

/// The default scheduling pass for two workers, as `marsc --workers 2` runs it.
fn schedule(subtasks: &mut SubtaskGraph, chunks: &ChunkGraph) {
    schedule_subtasks(
        subtasks,
        chunks,
        OrderPolicy::Priority,
        AssignPolicy::Bfs,
        Some(2),
    )
    .expect("a tiled graph is a DAG");
}

fn report_per_chunk_figures(millions: usize) {
    let graph = tileable_graph(millions);
    let wall = Instant::now();
    let start = cpu_nanos(wall);
    let chunks = driver::tile_graph(&graph).expect("the graph tiles");
    let tiled = cpu_nanos(wall);
    let mut subtasks = form_subtasks(&chunks);
    let fused = cpu_nanos(wall);
    schedule(&mut subtasks, &chunks);
    let scheduled = cpu_nanos(wall);
    let mut plan = build_plan(&subtasks, &chunks).expect("the graph plans");
    let planned = cpu_nanos(wall);
    compile_kernels(&mut plan, &chunks).expect("the kernels compile");
    let jitted = cpu_nanos(wall);
    let per_chunk = |nanos: u128| nanos as f64 / chunks.num_chunks() as f64;
    println!(
        "scale: {} chunks -> {} subtasks; CPU ns per chunk: tile {:.1}, fuse {:.1}, \
         schedule {:.1}, plan {:.1}, jit {:.1}; total {:.1}",
        chunks.num_chunks(),
        plan.subtasks.len(),
        per_chunk(tiled - start),
        per_chunk(fused - tiled),
        per_chunk(scheduled - fused),
        per_chunk(planned - scheduled),
        per_chunk(jitted - planned),
        per_chunk(jitted - start),
    );
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn tile(bencher: divan::Bencher, millions: usize) {
    let graph = tileable_graph(millions);
    bencher.bench(|| driver::tile_graph(&graph).map(|chunks| chunks.num_chunks()));
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn fuse(bencher: divan::Bencher, millions: usize) {
    let chunks = chunk_graph(millions);
    bencher.bench(|| form_subtasks(&chunks));
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn schedule_pass(bencher: divan::Bencher, millions: usize) {
    let chunks = chunk_graph(millions);
    bencher
        .with_inputs(|| form_subtasks(&chunks))
        .bench_local_values(|mut subtasks| {
            schedule(&mut subtasks, &chunks);
            subtasks
        });
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn plan(bencher: divan::Bencher, millions: usize) {
    let chunks = chunk_graph(millions);
    let mut subtasks = form_subtasks(&chunks);
    schedule(&mut subtasks, &chunks);
    bencher.bench(|| build_plan(&subtasks, &chunks).map(|plan| plan.subtasks.len()));
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn jit(bencher: divan::Bencher, millions: usize) {
    let chunks = chunk_graph(millions);
    let mut subtasks = form_subtasks(&chunks);
    schedule(&mut subtasks, &chunks);
    bencher
        .with_inputs(|| build_plan(&subtasks, &chunks).expect("the graph plans"))
        .bench_local_values(|mut plan| {
            compile_kernels(&mut plan, &chunks).expect("the kernels compile");
            plan
        });
}
