//! Tiling throughput: `ones((1000, 1000), chunks=1)` → `(x + 1).sum()`, a graph of
//! about 3.3 million chunks. Prints the nanoseconds per chunk and the bytes of graph
//! per chunk once before divan's timings (`cargo bench -p marsc-compiler --bench tile`).

use marsc::ops::{Creation, ElementwiseOp, ReductionOp};
use marsc::tile::{tile, TileOptions};
use marsc::tileable::{Output, PrintItem, TileOp, TileableGraph, TileableNode};
use marsc_grammar::Span;
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction};
use marsc_runtime::{DType, Scalar};
use std::time::Instant;

const SIDE: usize = 1000;

fn main() {
    report_per_chunk_figures();
    divan::main();
}

/// The TileableGraph lowering gives for the benchmark script.
fn million_chunk_program() -> TileableGraph {
    let mut graph = TileableGraph::new();
    let node = |op, inputs, shape: Vec<usize>, nsplits| TileableNode {
        op,
        inputs,
        shape,
        dtype: DType::Float64,
        nsplits,
        span: Span::new(0, 0),
    };
    let ones = graph.add(node(
        TileOp::Create(Creation::Full(Scalar::Float64(1.0))),
        vec![],
        vec![SIDE, SIDE],
        vec![vec![1; SIDE], vec![1; SIDE]],
    ));
    let one = graph.add(node(
        TileOp::Create(Creation::Full(Scalar::Float64(1.0))),
        vec![],
        vec![],
        vec![],
    ));
    let sum = graph.add(node(
        TileOp::Elementwise(ElementwiseOp::Binary {
            op: BinaryOp::Add,
            common: DType::Float64,
        }),
        vec![ones, one],
        vec![SIDE, SIDE],
        vec![vec![1; SIDE], vec![1; SIDE]],
    ));
    let total = graph.add(node(
        TileOp::Reduce(ReductionOp::Reduce {
            reduction: Reduction {
                op: ReduceOp::Sum,
                ddof: 0.0,
            },
            axes: vec![0, 1],
            keepdims: false,
        }),
        vec![sum],
        vec![],
        vec![],
    ));
    graph.outputs.push(Output::Print {
        items: vec![PrintItem::Tensor(total)],
        sep: " ".into(),
        end: "\n".into(),
        span: Span::new(0, 0),
    });
    graph
}

fn report_per_chunk_figures() {
    let program = million_chunk_program();
    let options = TileOptions::default();
    let _warm = tile(&program, &options);
    let start = Instant::now();
    let graph = match tile(&program, &options) {
        Ok(graph) => graph,
        Err(error) => {
            eprintln!("tiling failed: {error}");
            return;
        }
    };
    let elapsed = start.elapsed();
    let chunks = graph.num_chunks();
    println!(
        "tile: {chunks} chunks, {} edges, {:.1} ns/chunk, {:.1} bytes/chunk",
        graph.num_edges(),
        elapsed.as_nanos() as f64 / chunks as f64,
        graph.heap_bytes() as f64 / chunks as f64
    );
}

#[divan::bench(sample_count = 5)]
fn tile_million_chunks(bencher: divan::Bencher) {
    let program = million_chunk_program();
    let options = TileOptions::default();
    bencher.bench(|| tile(&program, &options).map(|g| g.num_chunks()));
}
