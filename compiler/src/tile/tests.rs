//! Tests of the tiling rules on hand-built TileableGraphs (with the nsplits
//! inference gives), checking the chunk structure and that `verify` accepts it.

use super::{tile, TileOptions};
use crate::chunk::{verify, ChunkGraph, ChunkId, ChunkOp, LocalIndexItem, StepId};
use crate::ops::{Creation, ElementwiseOp, ReductionOp, ShapeOp};
use crate::tileable::{
    IndexItem, Output, PrintItem, TileOp, TileableGraph, TileableId, TileableNode,
};
use marsc_grammar::Span;
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction, ScanOp, UnaryOp};
use marsc_runtime::storage::npy::header::NpyHeader;
use marsc_runtime::storage::npy::NpyStore;
use marsc_runtime::storage::StoreRef;
use marsc_runtime::{DType, Scalar};
use std::path::Path;
use std::sync::Arc;

/// A program under construction.
struct Program(TileableGraph);

impl Program {
    fn new() -> Program {
        Program(TileableGraph::new())
    }

    fn add(&mut self, op: TileOp, inputs: &[TileableId], nsplits: &[&[usize]]) -> TileableId {
        let nsplits: Vec<Vec<usize>> = nsplits.iter().map(|s| s.to_vec()).collect();
        let shape = nsplits.iter().map(|s| s.iter().sum()).collect();
        self.0.add(TileableNode {
            op,
            inputs: inputs.to_vec(),
            shape,
            dtype: DType::Float64,
            nsplits,
            span: Span::new(0, 0),
        })
    }

    fn ones(&mut self, nsplits: &[&[usize]]) -> TileableId {
        self.add(
            TileOp::Create(Creation::Full(Scalar::Float64(1.0))),
            &[],
            nsplits,
        )
    }

    /// Tiles the program printing `shown`, checks `verify`, and returns the graph
    /// with the step of `shown`.
    fn tile(mut self, shown: TileableId) -> (ChunkGraph, StepId) {
        self.0.outputs.push(Output::Print {
            items: vec![PrintItem::Tensor(shown)],
            sep: " ".into(),
            end: "\n".into(),
            span: Span::new(0, 0),
        });
        let graph = tile(&self.0, &TileOptions::default()).expect("tiles");
        if let Err(message) = verify(&graph) {
            panic!("verify failed: {message}\n{graph}");
        }
        let step = graph.tileable_steps[shown.index()].expect("tiled");
        (graph, step)
    }
}

fn add() -> TileOp {
    TileOp::Elementwise(ElementwiseOp::Binary {
        op: BinaryOp::Add,
        common: DType::Float64,
    })
}

fn sum_over(axes: &[usize], keepdims: bool) -> TileOp {
    TileOp::Reduce(ReductionOp::Reduce {
        reduction: Reduction {
            op: ReduceOp::Sum,
            ddof: 0.0,
        },
        axes: axes.to_vec(),
        keepdims,
    })
}

/// The ids of a step's chunks' inputs, chunk by chunk, as plain numbers.
fn inputs_of(graph: &ChunkGraph, step: StepId) -> Vec<Vec<u32>> {
    graph
        .step(step)
        .chunk_ids()
        .map(|c| graph.inputs(c).iter().map(|i| i.0).collect())
        .collect()
}

/// The steps of each op name, in order.
fn steps_named(graph: &ChunkGraph, name: &str) -> Vec<StepId> {
    graph
        .step_ids()
        .filter(|&s| graph.step(s).op.name() == name)
        .collect()
}

#[test]
fn mixed_chunkings_are_unified_by_splitting() {
    // (2, 2) and (3, 1) meet at their common refinement (2, 1, 1).
    let mut program = Program::new();
    let a = program.ones(&[&[2, 2]]);
    let b = program.ones(&[&[3, 1]]);
    let sum = program.add(add(), &[a, b], &[&[2, 1, 1]]);
    let (graph, step) = program.tile(sum);
    let assembles = steps_named(&graph, "assemble");
    assert_eq!(assembles.len(), 2);
    // Each rechunked chunk is a piece of exactly one old chunk.
    assert_eq!(
        inputs_of(&graph, assembles[0]),
        vec![vec![0], vec![1], vec![1]]
    );
    assert_eq!(
        inputs_of(&graph, assembles[1]),
        vec![vec![2], vec![2], vec![3]]
    );
    assert_eq!(graph.step(step).layout.nsplits(), &[vec![2, 1, 1]]);
    let pieces = graph.assemble_pieces(graph.step(assembles[1]).chunk(1));
    assert_eq!(pieces[0].region, vec![2..3]);
}

#[test]
fn broadcast_axes_are_left_alone() {
    let mut program = Program::new();
    let x = program.ones(&[&[2, 2], &[3, 3]]);
    let row = program.ones(&[&[3, 3]]);
    let column = program.ones(&[&[2, 2], &[1]]);
    let scalar = program.ones(&[]);
    let xr = program.add(add(), &[x, row], &[&[2, 2], &[3, 3]]);
    let xc = program.add(add(), &[xr, column], &[&[2, 2], &[3, 3]]);
    let xs = program.add(add(), &[xc, scalar], &[&[2, 2], &[3, 3]]);
    let (graph, step) = program.tile(xs);
    assert!(steps_named(&graph, "assemble").is_empty());
    // x: c0..c3, row: c4..c5, column: c6..c7, scalar: c8.
    let xr = graph.tileable_steps[xr.index()].unwrap();
    assert_eq!(
        inputs_of(&graph, xr),
        vec![vec![0, 4], vec![1, 5], vec![2, 4], vec![3, 5]]
    );
    let xc = graph.tileable_steps[xc.index()].unwrap();
    assert_eq!(inputs_of(&graph, xc)[3][1], 7);
    assert!(inputs_of(&graph, step).iter().all(|inputs| inputs[1] == 8));
}

#[test]
fn multi_axis_reduction_is_a_tree_with_spread_fan_in() {
    // A 4x4 grid of chunks summed over both axes: 16 states, 2x2 groups, 4, then 1.
    let mut program = Program::new();
    let x = program.ones(&[&[2; 4], &[3; 4]]);
    let total = program.add(sum_over(&[0, 1], false), &[x], &[]);
    let (graph, step) = program.tile(total);
    let combines = steps_named(&graph, "sum.combine");
    assert_eq!(combines.len(), 2);
    assert_eq!(graph.step(combines[0]).num_chunks, 4);
    assert_eq!(graph.step(combines[1]).num_chunks, 1);
    // The first combine chunk merges the top-left 2x2 block of states.
    let map = steps_named(&graph, "sum.map")[0];
    let first = graph.step(map).first_chunk.0;
    assert_eq!(
        inputs_of(&graph, combines[0])[0],
        vec![first, first + 1, first + 4, first + 5]
    );
    assert!(inputs_of(&graph, combines[1])[0].len() == 4);
    assert_eq!(graph.step(step).num_chunks, 1);
    assert_eq!(graph.step(step).layout.shape(), &[] as &[usize]);
}

#[test]
fn reduction_keeps_other_axes_chunked() {
    let mut program = Program::new();
    let x = program.ones(&[&[2; 3], &[3; 4]]);
    let per_column = program.add(sum_over(&[0], true), &[x], &[&[1], &[3; 4]]);
    let (graph, step) = program.tile(per_column);
    assert_eq!(graph.step(step).num_chunks, 4);
    let combine = steps_named(&graph, "sum.combine")[0];
    // Three row blocks merged per column block: fan-in 3 within the limit of 4.
    assert_eq!(inputs_of(&graph, combine).len(), 4);
    assert!(inputs_of(&graph, combine)
        .iter()
        .all(|inputs| inputs.len() == 3));
    assert_eq!(graph.data_shape(graph.step(step).chunk(0)), vec![1, 3]);
}

#[test]
fn scan_carries_form_one_chain_of_k_minus_one() {
    let mut program = Program::new();
    let x = program.ones(&[&[2; 5]]);
    let scan = program.add(
        TileOp::Reduce(ReductionOp::Scan {
            op: ScanOp::CumSum,
            axis: 0,
        }),
        &[x],
        &[&[2; 5]],
    );
    let (graph, step) = program.tile(scan);
    let totals = steps_named(&graph, "cumsum.total")[0];
    let carries = steps_named(&graph, "cumsum.carry")[0];
    assert_eq!(graph.step(totals).num_chunks, 4);
    assert_eq!(graph.step(carries).num_chunks, 4);
    let (t, c) = (
        graph.step(totals).first_chunk.0,
        graph.step(carries).first_chunk.0,
    );
    assert_eq!(
        inputs_of(&graph, carries),
        vec![
            vec![t],
            vec![c, t + 1],
            vec![c + 1, t + 2],
            vec![c + 2, t + 3]
        ]
    );
    let scans = inputs_of(&graph, step);
    assert_eq!(scans[0], vec![0]);
    assert_eq!(scans[4], vec![4, c + 3]);
    // O(k) edges: 4 totals + 7 carry edges + 9 scan edges for 5 chunks.
    assert_eq!(graph.num_edges(), 20);
}

#[test]
fn matmul_sums_runs_of_combine_size_contracted_blocks_then_a_tree() {
    let mut program = Program::new();
    let a = program.ones(&[&[4], &[1; 9]]);
    let b = program.ones(&[&[1; 9], &[4]]);
    let product = program.add(TileOp::MatMul, &[a, b], &[&[4], &[4]]);
    let (graph, step) = program.tile(product);
    // Nine contracted blocks in runs of 4, 4 and 1 (pairs of inputs), then one sum.
    let blocks = steps_named(&graph, "matmul.block")[0];
    assert_eq!(
        graph.step(blocks).op,
        ChunkOp::MatMulBlock { partial: true }
    );
    assert_eq!(graph.step(blocks).layout.nsplits()[0], vec![1, 1, 1]);
    let run_lengths: Vec<usize> = inputs_of(&graph, blocks).iter().map(Vec::len).collect();
    assert_eq!(run_lengths, vec![8, 8, 2]);
    assert_eq!(graph.step(step).op, ChunkOp::SumBlocks { partial: false });
    let partials: Vec<u32> = graph.step(blocks).chunk_ids().map(|c| c.0).collect();
    assert_eq!(inputs_of(&graph, step), vec![partials]);
}

#[test]
fn matmul_with_uneven_chunks_never_concatenates_the_contracted_axis() {
    let mut program = Program::new();
    let a = program.ones(&[&[2, 3], &[3, 4]]);
    let b = program.ones(&[&[4, 3], &[2, 2]]);
    let product = program.add(TileOp::MatMul, &[a, b], &[&[2, 3], &[2, 2]]);
    let (graph, step) = program.tile(product);
    // Contracted splits (3, 4) and (4, 3) refine to (3, 1, 3): three terms, one run
    // (combine_size 4), so each output block sums its three products in one kernel.
    assert_eq!(graph.step(step).op, ChunkOp::MatMulBlock { partial: false });
    assert_eq!(graph.step(step).num_chunks, 4);
    assert!(steps_named(&graph, "matmul.sum").is_empty());
    assert!(inputs_of(&graph, step)
        .iter()
        .all(|inputs| inputs.len() == 6));
    // Every assembled chunk of the operands is a piece of one old chunk.
    for rechunk in steps_named(&graph, "assemble") {
        assert!(inputs_of(&graph, rechunk)
            .iter()
            .all(|inputs| inputs.len() == 1));
    }
    assert_eq!(graph.data_shape(graph.step(step).chunk(3)), vec![3, 2]);
}

#[test]
fn negative_step_slices_read_only_touched_chunks_in_reverse() {
    // x[::-2] over chunks (3, 3, 3): positions 8, 6 | 4 | 2, 0.
    let mut program = Program::new();
    let x = program.ones(&[&[3, 3, 3]]);
    let item = IndexItem::Slice {
        start: 8,
        step: -2,
        len: 5,
    };
    let sliced = program.add(TileOp::Index { items: vec![item] }, &[x], &[&[2, 1, 2]]);
    let (graph, step) = program.tile(sliced);
    assert_eq!(inputs_of(&graph, step), vec![vec![2], vec![1], vec![0]]);
    let local = |i: usize| graph.slice_items(graph.step(step).chunk(i)).unwrap();
    assert_eq!(
        local(0),
        vec![LocalIndexItem::Range {
            start: 2,
            step: -2,
            len: 2
        }]
    );
    assert_eq!(
        local(1),
        vec![LocalIndexItem::Range {
            start: 1,
            step: -2,
            len: 1
        }]
    );
    assert_eq!(
        local(2),
        vec![LocalIndexItem::Range {
            start: 2,
            step: -2,
            len: 2
        }]
    );
}

#[test]
fn int_and_new_axis_items_pick_one_chunk() {
    // x[5, None, 1:4] over (4x2, 2x3).
    let mut program = Program::new();
    let x = program.ones(&[&[4, 4], &[2, 2, 2]]);
    let items = vec![
        IndexItem::Int(5),
        IndexItem::NewAxis,
        IndexItem::Slice {
            start: 1,
            step: 1,
            len: 3,
        },
    ];
    let sliced = program.add(TileOp::Index { items }, &[x], &[&[1], &[1, 2]]);
    let (graph, step) = program.tile(sliced);
    assert_eq!(inputs_of(&graph, step), vec![vec![3], vec![4]]);
    assert_eq!(
        graph.slice_items(graph.step(step).chunk(1)).unwrap(),
        vec![
            LocalIndexItem::Index(1),
            LocalIndexItem::NewAxis,
            LocalIndexItem::Range {
                start: 0,
                step: 1,
                len: 2
            }
        ]
    );
}

#[test]
fn relabels_map_chunks_one_to_one() {
    let mut program = Program::new();
    let x = program.ones(&[&[2, 2], &[3, 3, 3]]);
    let t = program.add(
        TileOp::Shape(ShapeOp::Transpose { axes: vec![1, 0] }),
        &[x],
        &[&[3, 3, 3], &[2, 2]],
    );
    let e = program.add(
        TileOp::Shape(ShapeOp::ExpandDims { axes: vec![0] }),
        &[t],
        &[&[1], &[3, 3, 3], &[2, 2]],
    );
    let s = program.add(
        TileOp::Shape(ShapeOp::Squeeze { axes: vec![0] }),
        &[e],
        &[&[3, 3, 3], &[2, 2]],
    );
    let b = program.add(
        TileOp::Shape(ShapeOp::BroadcastTo),
        &[s],
        &[&[5], &[3, 3, 3], &[2, 2]],
    );
    let (graph, step) = program.tile(b);
    assert!(steps_named(&graph, "assemble").is_empty());
    let t = graph.tileable_steps[t.index()].unwrap();
    // Output chunk (i, j) of the transpose is input chunk (j, i).
    assert_eq!(
        inputs_of(&graph, t),
        vec![vec![0], vec![3], vec![1], vec![4], vec![2], vec![5]]
    );
    assert_eq!(graph.step(step).num_chunks, 6);
    assert_eq!(graph.chunk_shape(graph.step(step).chunk(0)), vec![5, 3, 2]);
}

#[test]
fn concatenate_relabels_after_unifying_other_axes() {
    let mut program = Program::new();
    let a = program.ones(&[&[2], &[3, 3]]);
    let b = program.ones(&[&[1, 2], &[2, 4]]);
    let joined = program.add(
        TileOp::Concatenate { axis: 0 },
        &[a, b],
        &[&[2, 1, 2], &[2, 1, 3]],
    );
    let (graph, step) = program.tile(joined);
    assert_eq!(graph.step(step).op, ChunkOp::Alias);
    assert_eq!(graph.step(step).num_chunks, 9);
    assert_eq!(steps_named(&graph, "assemble").len(), 2);
}

#[test]
fn rows_to_columns_rechunk_goes_through_an_intermediate() {
    let mut program = Program::new();
    let rows: Vec<usize> = vec![1; 64];
    let x = program.ones(&[&rows, &[64]]);
    let columns = program.add(TileOp::Rechunk, &[x], &[&[64], &rows]);
    let (graph, step) = program.tile(columns);
    assert_eq!(steps_named(&graph, "assemble").len(), 2);
    assert_eq!(graph.step(step).layout.nsplits(), &[vec![64], rows.clone()]);
    // 64x64 = 4096 edges directly; through 8x8 blocks 2 x 512; plus the 12 of the
    // corners step that prints the (summarized, 4096-element) result.
    assert_eq!(graph.num_edges(), 1024 + 12);
}

#[test]
fn saves_write_regions_between_init_and_commit() {
    let mut program = Program::new();
    let x = program.ones(&[&[2, 2], &[3]]);
    let y = program.add(
        TileOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Negative)),
        &[x],
        &[&[2, 2], &[3]],
    );
    for _ in 0..2 {
        program.0.outputs.push(Output::Save {
            path: "out.npy".into(),
            tensor: y,
            span: Span::new(0, 0),
            format: Default::default(),
        });
    }
    let (graph, _) = program.tile(y);
    let inits = steps_named(&graph, "save.init");
    let commits = steps_named(&graph, "save.commit");
    assert_eq!(inits.len(), 2);
    assert!(inputs_of(&graph, inits[0])[0].is_empty());
    // The second save waits for the first one's commit.
    assert_eq!(
        inputs_of(&graph, inits[1])[0],
        vec![graph.step(commits[0]).first_chunk.0]
    );
    assert_eq!(inputs_of(&graph, commits[0])[0].len(), 2);
}

#[test]
fn keys_are_stable_and_content_addressed() {
    let build = |value: f64| {
        let mut program = Program::new();
        let x = program.add(
            TileOp::Create(Creation::Full(Scalar::Float64(value))),
            &[],
            &[&[2, 2]],
        );
        let y = program.add(
            TileOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Exp)),
            &[x],
            &[&[2, 2]],
        );
        program.tile(y)
    };
    let (first, step) = build(1.0);
    let (again, _) = build(1.0);
    let (other, _) = build(2.0);
    let keys = |g: &ChunkGraph| g.chunk_ids().map(|c| g.chunk_key(c)).collect::<Vec<_>>();
    assert_eq!(keys(&first), keys(&again));
    assert_ne!(keys(&first)[2], keys(&other)[2]);
    let chunk = first.step(step).chunk(1);
    assert_eq!(first.chunk_key(chunk).index, 1);
    assert_eq!(first.chunk_key(chunk).step, first.step(step).key);
    assert_eq!(first.to_string(), again.to_string());
}

#[test]
fn verify_rejects_a_chunk_with_the_wrong_arity() {
    let mut graph = ChunkGraph::new();
    let layout = crate::chunk::Layout::new(vec![vec![2]]);
    let x = graph
        .add_step(
            ChunkOp::Create(Creation::Full(Scalar::Float64(1.0))),
            TileableId(0),
            DType::Float64,
            layout.clone(),
            vec![],
        )
        .unwrap();
    graph.push_chunk(&[]);
    let op = ChunkOp::Elementwise(ElementwiseOp::Binary {
        op: BinaryOp::Add,
        common: DType::Float64,
    });
    graph
        .add_step(op, TileableId(1), DType::Float64, layout, vec![x])
        .unwrap();
    graph.push_chunk(&[ChunkId(0)]);
    let message = verify(&graph).unwrap_err().to_string();
    assert!(message.contains("takes 2..=2 inputs"), "{message}");
}

#[test]
fn verify_rejects_misaligned_elementwise_inputs() {
    let mut graph = ChunkGraph::new();
    let x = graph
        .add_step(
            ChunkOp::Create(Creation::Full(Scalar::Float64(1.0))),
            TileableId(0),
            DType::Float64,
            crate::chunk::Layout::new(vec![vec![2, 2]]),
            vec![],
        )
        .unwrap();
    graph.push_chunk(&[]);
    graph.push_chunk(&[]);
    let op = ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Negative));
    graph
        .add_step(
            op,
            TileableId(1),
            DType::Float64,
            crate::chunk::Layout::new(vec![vec![2, 2]]),
            vec![x],
        )
        .unwrap();
    // Swapped inputs: same shapes, wrong regions.
    graph.push_chunk(&[ChunkId(1)]);
    graph.push_chunk(&[ChunkId(0)]);
    let message = verify(&graph).unwrap_err().to_string();
    assert!(message.contains("not aligned"), "{message}");
}

#[test]
fn too_many_chunks_is_an_error_not_a_panic() {
    let mut program = Program::new();
    let huge: Vec<usize> = vec![1; 70_000];
    let x = program.ones(&[&huge, &huge]);
    program.0.outputs.push(Output::Print {
        items: vec![PrintItem::Tensor(x)],
        sep: " ".into(),
        end: "\n".into(),
        span: Span::new(0, 0),
    });
    let error = tile(&program.0, &TileOptions::default()).unwrap_err();
    assert!(error.0.contains("larger chunks"), "{}", error.0);
}

#[test]
fn loads_read_their_own_regions() {
    let mut program = Program::new();
    let header = NpyHeader {
        dtype: DType::Float64,
        shape: vec![2, 3],
        fortran_order: true,
        data_offset: 128,
    };
    let store = NpyStore::with_header(Path::new("data.npy"), header, false);
    let load = TileOp::Create(Creation::Load {
        source: StoreRef::new(Arc::new(store)),
    });
    let x = program.add(load, &[], &[&[1, 1], &[2, 1]]);
    let (graph, step) = program.tile(x);
    assert_eq!(graph.step(step).num_chunks, 4);
    assert_eq!(graph.chunk_offset(graph.step(step).chunk(3)), vec![1, 2]);
    assert_eq!(graph.chunk_shape(graph.step(step).chunk(3)), vec![1, 1]);
    assert!(graph
        .step(step)
        .chunk_ids()
        .all(|c| graph.inputs(c).is_empty()));
}
