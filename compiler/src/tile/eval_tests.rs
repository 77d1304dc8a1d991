//! The property that matters most: a result never depends on the chunking. Random
//! programs over int64 data are tiled twice — with random chunkings and with one
//! chunk per tensor — and both ChunkGraphs are evaluated with the runtime's own chunk
//! kernels; every printed tensor must be identical. This checks what `verify` cannot:
//! that the wiring, slice items, assembled pieces, reshape correspondence, scan
//! carries, reduction trees and matmul sums compute the right values.

use super::{tile, TileOptions};
use crate::chunk::{verify, ChunkGraph, ChunkId, ChunkOp, LocalIndexItem, StepId};
use crate::infer::index::{normalize_index, RawIndexItem};
use crate::ops::{Creation, ElementwiseOp, ReductionOp, ReductionStage, ShapeOp};
use crate::tileable::nsplits::{infer_nsplits, InputLayout};
use crate::tileable::{Output, PrintItem, TileOp, TileableGraph, TileableId, TileableNode};
use marsc_grammar::Span;
use marsc_runtime::kernels::reduce::{reduce_combine, reduce_finish, reduce_map, ReduceState};
use marsc_runtime::kernels::{matmul, scan, shape};
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction, ScanOp};
use marsc_runtime::{ArrayData, DType, Scalar};
use ndarray::{ArrayD, IxDyn, Slice};
use proptest::prelude::*;
use std::sync::Arc;

/// A chunk's value while evaluating: data, or a partial reduction.
enum Value {
    Data(ArrayData),
    State(ReduceState),
}

fn data(value: &Value) -> &ArrayData {
    match value {
        Value::Data(data) => data,
        Value::State(_) => panic!("expected data, got a reduction state"),
    }
}

fn ints(value: &ArrayData) -> &ArrayD<i64> {
    match value {
        ArrayData::Int64(array) => array,
        other => panic!("expected int64 data, got {:?}", other.dtype()),
    }
}

fn region_of(array: &ArrayD<i64>, offset: &[usize], shape: &[usize]) -> ArrayD<i64> {
    array
        .slice_each_axis(|ax| {
            let axis = ax.axis.index();
            Slice::from(offset[axis]..offset[axis] + shape[axis])
        })
        .to_owned()
}

fn eval_chunk(graph: &ChunkGraph, values: &[Value], chunk: ChunkId) -> Value {
    let step = graph.step_of(chunk);
    let inputs: Vec<&Value> = graph
        .inputs(chunk)
        .iter()
        .map(|c| &values[c.index()])
        .collect();
    let arg = |i: usize| data(inputs[i]);
    let out_shape = graph.chunk_shape(chunk);
    let result = match &step.op {
        ChunkOp::Create(Creation::Literal(literal)) => {
            let flat: Vec<i64> = literal.iter().map(|s| s.as_f64() as i64).collect();
            let whole = ArrayD::from_shape_vec(IxDyn(step.layout.shape()), flat).unwrap();
            Ok(ArrayData::Int64(region_of(
                &whole,
                &graph.chunk_offset(chunk),
                &out_shape,
            )))
        }
        ChunkOp::Elementwise(ElementwiseOp::Binary {
            op: BinaryOp::Add, ..
        }) => Ok(ArrayData::Int64(ints(arg(0)) + ints(arg(1)))),
        ChunkOp::Reduce(ReductionStage::Map {
            reduction,
            axes,
            input_shape,
        }) => {
            let offset = graph.chunk_offset(graph.inputs(chunk)[0]);
            return Value::State(
                reduce_map(*reduction, arg(0), axes, input_shape, &offset).unwrap(),
            );
        }
        ChunkOp::Reduce(ReductionStage::Combine { reduction, .. }) => {
            let parts: Vec<&ReduceState> = inputs
                .iter()
                .map(|v| match v {
                    Value::State(state) => state,
                    Value::Data(_) => panic!("combine of data"),
                })
                .collect();
            return Value::State(reduce_combine(*reduction, &parts).unwrap());
        }
        ChunkOp::Reduce(ReductionStage::Finish {
            reduction,
            keepdims,
            ..
        }) => match inputs[0] {
            Value::State(state) => reduce_finish(*reduction, state, *keepdims),
            Value::Data(_) => panic!("finish of data"),
        },
        ChunkOp::Reduce(ReductionStage::ScanTotal { op, axis }) => {
            scan::scan_total(*op, arg(0), *axis)
        }
        ChunkOp::Reduce(ReductionStage::ScanCarry { op, .. }) => {
            let previous = (inputs.len() == 2).then(|| arg(0));
            scan::scan_carry(*op, previous, arg(inputs.len() - 1))
        }
        ChunkOp::Reduce(ReductionStage::ScanChunk { op, axis }) => {
            scan::scan_chunk(*op, arg(0), *axis, inputs.get(1).map(|v| data(v)))
        }
        ChunkOp::MatMulBlock { .. } => {
            let operands: Vec<&ArrayData> = inputs.iter().map(|v| data(v)).collect();
            matmul::matmul_blocks(&operands)
        }
        ChunkOp::SumBlocks { .. } => {
            let parts: Vec<&ArrayData> = inputs.iter().map(|v| data(v)).collect();
            matmul::add_blocks(&parts)
        }
        ChunkOp::Shape(ShapeOp::Transpose { axes }) => shape::transpose(arg(0), axes),
        ChunkOp::Shape(ShapeOp::ExpandDims { axes }) => shape::expand_dims(arg(0), axes),
        ChunkOp::Shape(ShapeOp::Squeeze { axes }) => shape::squeeze(arg(0), axes),
        ChunkOp::Shape(ShapeOp::BroadcastTo) => shape::broadcast_to(arg(0), &out_shape),
        ChunkOp::Shape(ShapeOp::Reshape) => shape::reshape(arg(0), &out_shape),
        ChunkOp::Alias => Ok(arg(0).clone()),
        ChunkOp::Slice { .. } => {
            let items: Vec<shape::SliceItem> = graph
                .slice_items(chunk)
                .unwrap()
                .into_iter()
                .map(|item| match item {
                    LocalIndexItem::Index(i) => shape::SliceItem::Index(i),
                    LocalIndexItem::Range { start, step, len } => {
                        shape::SliceItem::Range { start, step, len }
                    }
                    LocalIndexItem::NewAxis => shape::SliceItem::NewAxis,
                })
                .collect();
            shape::slice(arg(0), &items)
        }
        ChunkOp::Assemble => {
            let mut out = ArrayD::<i64>::zeros(IxDyn(&out_shape));
            let out_offset = graph.chunk_offset(chunk);
            for piece in graph.assemble_pieces(chunk) {
                let source = ints(data(&values[piece.input.index()]));
                let in_offset = graph.chunk_offset(piece.input);
                let part =
                    source.slice_each_axis(|ax| Slice::from(piece.region[ax.axis.index()].clone()));
                out.slice_each_axis_mut(|ax| {
                    let axis = ax.axis.index();
                    let start = in_offset[axis] + piece.region[axis].start - out_offset[axis];
                    Slice::from(start..start + piece.region[axis].len())
                })
                .assign(&part);
            }
            Ok(ArrayData::Int64(out))
        }
        ChunkOp::Corners => {
            let mut out = ArrayD::<i64>::zeros(IxDyn(&out_shape));
            let whole = &graph.step(step.inputs[0]).layout;
            let pieces = crate::chunk::corners::corner_pieces(whole);
            for (piece, value) in pieces.iter().zip(&inputs) {
                let part = ints(data(value))
                    .slice_each_axis(|ax| Slice::from(piece.region[ax.axis.index()].clone()));
                out.slice_each_axis_mut(|ax| {
                    let axis = ax.axis.index();
                    Slice::from(piece.at[axis]..piece.at[axis] + piece.region[axis].len())
                })
                .assign(&part);
            }
            Ok(ArrayData::Int64(out))
        }
        other => panic!("the evaluator does not know {}", other.name()),
    };
    Value::Data(result.unwrap_or_else(|e| panic!("{} failed: {e}", step.op.name())))
}

/// The whole tensor of a step, assembled from its chunks by their offsets.
fn assemble_step(graph: &ChunkGraph, values: &[Value], step: StepId) -> ArrayData {
    let layout = &graph.step(step).layout;
    let chunks: Vec<ChunkId> = graph.step(step).chunk_ids().collect();
    if let [only] = chunks.as_slice() {
        if !matches!(data(&values[only.index()]), ArrayData::Int64(_)) {
            return data(&values[only.index()]).clone();
        }
    }
    let mut whole = ArrayD::<i64>::zeros(IxDyn(layout.shape()));
    for chunk in chunks {
        let offset = graph.chunk_offset(chunk);
        let part = ints(data(&values[chunk.index()]));
        whole
            .slice_each_axis_mut(|ax| {
                let axis = ax.axis.index();
                Slice::from(offset[axis]..offset[axis] + part.shape()[axis])
            })
            .assign(part);
    }
    ArrayData::Int64(whole)
}

/// Evaluates every chunk and returns the printed tensors, assembled.
fn run(graph: &ChunkGraph) -> Vec<ArrayData> {
    let mut values: Vec<Value> = Vec::with_capacity(graph.num_chunks());
    for chunk in graph.chunk_ids() {
        let value = eval_chunk(graph, &values, chunk);
        values.push(value);
    }
    let mut printed = Vec::new();
    for output in &graph.outputs {
        if let crate::chunk::ChunkOutput::Print { items, .. } = output {
            for item in items {
                if let Some(step) = item.tensor_step() {
                    printed.push(assemble_step(graph, &values, step));
                }
            }
        }
    }
    printed
}

/// Builds a TileableGraph the way lowering does: derived nsplits from inference.
struct Builder {
    graph: TileableGraph,
    whole: bool,
}

impl Builder {
    fn node(
        &mut self,
        op: TileOp,
        inputs: &[TileableId],
        shape: Vec<usize>,
        nsplits: Vec<Vec<usize>>,
    ) -> TileableId {
        self.graph.add(TileableNode {
            op,
            inputs: inputs.to_vec(),
            shape,
            dtype: DType::Int64,
            nsplits,
            span: Span::new(0, 0),
        })
    }

    fn literal(&mut self, shape: &[usize], nsplits: &[Vec<usize>], seed: i64) -> TileableId {
        let count: usize = shape.iter().product();
        let values: Arc<[Scalar]> = (0..count as i64)
            .map(|i| Scalar::Int64((i * 7 + seed) % 11 - 5))
            .collect();
        let nsplits = if self.whole {
            whole(shape)
        } else {
            nsplits.to_vec()
        };
        self.node(
            TileOp::Create(Creation::Literal(values)),
            &[],
            shape.to_vec(),
            nsplits,
        )
    }

    fn derived(&mut self, op: TileOp, inputs: &[TileableId], shape: Vec<usize>) -> TileableId {
        let nodes: Vec<&TileableNode> = inputs.iter().map(|&i| self.graph.node(i)).collect();
        let layouts: Vec<InputLayout> = nodes
            .iter()
            .map(|n| InputLayout {
                shape: &n.shape,
                nsplits: &n.nsplits,
            })
            .collect();
        let nsplits = infer_nsplits(&op, &layouts, &shape);
        self.node(op, inputs, shape, nsplits)
    }

    fn rechunk(&mut self, input: TileableId, nsplits: &[Vec<usize>]) -> TileableId {
        let shape = self.graph.node(input).shape.clone();
        let nsplits = if self.whole {
            whole(&shape)
        } else {
            nsplits.to_vec()
        };
        self.node(TileOp::Rechunk, &[input], shape, nsplits)
    }
}

fn whole(shape: &[usize]) -> Vec<Vec<usize>> {
    shape.iter().map(|&len| vec![len]).collect()
}

/// The random parts of a test program.
#[derive(Clone, Debug)]
struct Case {
    n: usize,
    m: usize,
    x_splits: Vec<Vec<usize>>,
    y_splits: Vec<usize>,
    rechunk_to: Vec<Vec<usize>>,
    index: Vec<RawIndexItem>,
    reduce_axes: Vec<usize>,
    keepdims: bool,
    scan_axis: usize,
    combine_size: usize,
}

fn program(case: &Case, whole: bool) -> TileableGraph {
    let mut b = Builder {
        graph: TileableGraph::new(),
        whole,
    };
    let (n, m) = (case.n, case.m);
    let x = b.literal(&[n, m], &case.x_splits, 0);
    let y = b.literal(&[m], std::slice::from_ref(&case.y_splits), 3);
    let add = TileOp::Elementwise(ElementwiseOp::Binary {
        op: BinaryOp::Add,
        common: DType::Int64,
    });
    let z = b.derived(add, &[x, y], vec![n, m]);
    let t = b.derived(
        TileOp::Shape(ShapeOp::Transpose { axes: vec![1, 0] }),
        &[z],
        vec![m, n],
    );
    let (items, sliced_shape) = normalize_index(&[m, n], &case.index).expect("valid index");
    let sliced = b.derived(TileOp::Index { items }, &[t], sliced_shape);
    let sum = |op| {
        TileOp::Reduce(ReductionOp::Reduce {
            reduction: Reduction { op, ddof: 0.0 },
            axes: case.reduce_axes.clone(),
            keepdims: case.keepdims,
        })
    };
    let reduced_shape =
        crate::infer::shapes::reduced_shape(&[n, m], &case.reduce_axes, case.keepdims);
    let total = b.derived(sum(ReduceOp::Sum), &[z], reduced_shape.clone());
    let arg = b.derived(sum(ReduceOp::ArgMax), &[z], reduced_shape);
    let scanned = b.derived(
        TileOp::Reduce(ReductionOp::Scan {
            op: ScanOp::CumSum,
            axis: case.scan_axis,
        }),
        &[z],
        vec![n, m],
    );
    let product = b.derived(TileOp::MatMul, &[z, t], vec![n, n]);
    let flat = b.derived(TileOp::Shape(ShapeOp::Reshape), &[z], vec![n * m]);
    let reshaped = b.derived(TileOp::Shape(ShapeOp::Reshape), &[flat], vec![m, n]);
    let joined = b.derived(TileOp::Concatenate { axis: 0 }, &[x, z], vec![2 * n, m]);
    let rechunked = b.rechunk(z, &case.rechunk_to);
    let expanded = b.derived(
        TileOp::Shape(ShapeOp::ExpandDims { axes: vec![1] }),
        &[rechunked],
        vec![n, 1, m],
    );
    let broadcast = b.derived(
        TileOp::Shape(ShapeOp::BroadcastTo),
        &[expanded],
        vec![n, 3, m],
    );
    let squeezed = b.derived(
        TileOp::Shape(ShapeOp::Squeeze { axes: vec![1] }),
        &[expanded],
        vec![n, m],
    );
    let shown = [
        z, sliced, total, arg, scanned, product, reshaped, joined, broadcast, squeezed,
    ];
    b.graph.outputs.push(Output::Print {
        items: shown.iter().map(|&id| PrintItem::Tensor(id)).collect(),
        sep: " ".into(),
        end: "\n".into(),
        span: Span::new(0, 0),
    });
    b.graph
}

/// Every way to split `len` into chunks, chosen by cut points.
fn splits(len: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<bool>(), len.saturating_sub(1)).prop_map(move |cuts| {
        let mut out = vec![];
        let mut size = 1;
        for cut in cuts {
            if cut {
                out.push(size);
                size = 1;
            } else {
                size += 1;
            }
        }
        out.push(size);
        out
    })
}

fn index_item(len: usize) -> impl Strategy<Value = RawIndexItem> {
    let len = len as i64;
    prop_oneof![
        (0..len).prop_map(RawIndexItem::Int),
        (
            prop::option::of(-len - 1..=len + 1),
            prop::option::of(-len - 1..=len + 1),
            prop::sample::select(vec![-3i64, -2, -1, 1, 2, 3]),
        )
            .prop_map(|(start, stop, step)| RawIndexItem::Slice {
                start,
                stop,
                step: Some(step)
            }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=5, 1usize..=5).prop_flat_map(|(n, m)| {
        (
            (splits(n), splits(m), splits(m)),
            (splits(n), splits(m)),
            (index_item(m), index_item(n), any::<bool>()),
            (
                prop::sample::select(vec![vec![0], vec![1], vec![0, 1]]),
                any::<bool>(),
                0usize..2,
                2usize..=4,
            ),
        )
            .prop_map(
                move |(
                    (x0, x1, y),
                    (r0, r1),
                    (i0, i1, new_axis),
                    (axes, keepdims, scan_axis, combine),
                )| {
                    let mut index = vec![i0, i1];
                    if new_axis {
                        index.insert(1, RawIndexItem::NewAxis);
                    }
                    Case {
                        n,
                        m,
                        x_splits: vec![x0, x1],
                        y_splits: y,
                        rechunk_to: vec![r0, r1],
                        index,
                        reduce_axes: axes,
                        keepdims,
                        scan_axis,
                        combine_size: combine,
                    }
                },
            )
    })
}

fn tile_and_run(program: &TileableGraph, combine_size: usize) -> Vec<ArrayData> {
    let options = TileOptions {
        combine_size,
        ..TileOptions::default()
    };
    let graph = tile(program, &options).expect("tiles");
    if let Err(message) = verify(&graph) {
        panic!("verify failed: {message}\n{graph}");
    }
    run(&graph)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn results_do_not_depend_on_chunking(case in case()) {
        let chunked = tile_and_run(&program(&case, false), case.combine_size);
        let single = tile_and_run(&program(&case, true), case.combine_size);
        for (position, (a, b)) in chunked.iter().zip(&single).enumerate() {
            prop_assert_eq!(a, b, "printed tensor {} differs", position);
        }
    }
}

#[test]
fn rechunk_through_an_intermediate_keeps_values() {
    let build = |whole: bool| {
        let mut b = Builder {
            graph: TileableGraph::new(),
            whole,
        };
        let x = b.literal(&[16, 16], &[vec![1; 16], vec![16]], 1);
        let columns = b.rechunk(x, &[vec![16], vec![1; 16]]);
        b.graph.outputs.push(Output::Print {
            items: vec![PrintItem::Tensor(columns)],
            sep: " ".into(),
            end: "\n".into(),
            span: Span::new(0, 0),
        });
        b.graph
    };
    let chunked = build(false);
    let graph = tile(&chunked, &TileOptions::default()).unwrap();
    let assembles = graph
        .steps()
        .iter()
        .filter(|s| s.op == ChunkOp::Assemble)
        .count();
    assert_eq!(
        assembles, 2,
        "rows to columns goes through one intermediate"
    );
    assert_eq!(tile_and_run(&chunked, 4), tile_and_run(&build(true), 4));
}
