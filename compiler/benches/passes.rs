//! The scheduling passes together on about a million chunks: fusion (ChunkGraph →
//! SubtaskGraph), worker assignment and priority. Target: under 1 µs per chunk for
//! all three. Prints the CPU time per chunk of each pass once, then divan's timings
//! of fusion alone and of all three (`cargo bench -p marsc-compiler --bench passes`).
//!
//! Two graphs: an element-wise tree over two random inputs ending in a sum (most
//! chunks fuse into the reduction's map), and a long element-wise chain over a 2-D
//! tensor that is printed whole (every chunk's chain fuses, nothing reduces).

mod support;

use marsc::chunk::ChunkGraph;
use marsc::driver::{self, Options};
use marsc::fuse::{fuse, Fusion};
use marsc::subtask::{schedule_subtasks, AssignPolicy, OrderPolicy, SubtaskGraph};
use std::time::Instant;
use support::cpu_nanos;

/// About 1.07 million chunks: 200,000 chunks per element-wise step plus the tree.
const TREE_SCRIPT: &str = "import mars.tensor as mt\n\
                           n = 200000\n\
                           a = mt.random.rand(n, chunks=1)\n\
                           b = mt.random.rand(n, chunks=1)\n\
                           print(((a + b) * (a - b)).sum())\n";

/// About 1.0 million chunks: 10 steps over 100,000 chunks.
const CHAIN_SCRIPT: &str = "import mars.tensor as mt\n\
                            x = mt.ones((1000, 100), chunks=(1, 1))\n\
                            y = mt.sqrt(mt.abs(mt.sin(x) * 3 - 1) + 2)\n\
                            print(mt.exp(-y) + y)\n";

fn main() {
    for (name, script) in [("tree", TREE_SCRIPT), ("chain", CHAIN_SCRIPT)] {
        report_per_chunk_figures(name, &chunk_graph(script));
    }
    divan::main();
}

fn chunk_graph(script: &str) -> ChunkGraph {
    match driver::chunk(script, &Options::default()) {
        Ok((_, chunks)) => chunks,
        Err(error) => panic!("the benchmark script does not compile: {error:?}"),
    }
}

/// Workers the assignment spreads the subtasks over.
const WORKERS: u32 = 8;

/// The passes after fusion, as the driver runs them by default: the memory-frugal
/// priority order and the breadth-first initial assignment.
fn schedule(subtasks: &mut SubtaskGraph, chunks: &ChunkGraph) {
    if let Err(message) = schedule_subtasks(
        subtasks,
        chunks,
        OrderPolicy::Priority,
        AssignPolicy::Bfs,
        Some(WORKERS),
    ) {
        panic!("scheduling failed: {message}");
    }
}

fn report_per_chunk_figures(name: &str, chunks: &ChunkGraph) {
    let wall = Instant::now();
    let start = cpu_nanos(wall);
    let mut subtasks = fuse(chunks, Fusion::Blockwise);
    let fused = cpu_nanos(wall);
    schedule(&mut subtasks, chunks);
    let scheduled = cpu_nanos(wall);
    let per_chunk = |nanos: u128| nanos as f64 / chunks.num_chunks() as f64;
    println!(
        "passes ({name}): {} chunks -> {} subtasks; CPU time per chunk: fusion {:.1} ns, \
         assignment + priority {:.1} ns; total {:.1} ns",
        chunks.num_chunks(),
        subtasks.len(),
        per_chunk(fused - start),
        per_chunk(scheduled - fused),
        per_chunk(scheduled - start),
    );
}

#[divan::bench(args = ["tree", "chain"], sample_count = 5)]
fn fusion_only(bencher: divan::Bencher, name: &str) {
    let chunks = chunk_graph(script_named(name));
    bencher.bench(|| fuse(&chunks, Fusion::Blockwise).len());
}

#[divan::bench(args = ["tree", "chain"], sample_count = 5)]
fn fusion_assignment_priority(bencher: divan::Bencher, name: &str) {
    let chunks = chunk_graph(script_named(name));
    bencher.bench(|| {
        let mut subtasks = fuse(&chunks, Fusion::Blockwise);
        schedule(&mut subtasks, &chunks);
        subtasks.len()
    });
}

fn script_named(name: &str) -> &'static str {
    if name == "tree" {
        TREE_SCRIPT
    } else {
        CHAIN_SCRIPT
    }
}
