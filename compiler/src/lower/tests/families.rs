//! Each library family lowered to the expected TileOps: the conveniences NumPy has
//! are decomposed (`clip`, `outer`, `stack`, `hstack`/`vstack`, `swapaxes`, `ravel`,
//! 1-D `dot`, `empty`, `identity`, `*_like`, `cumsum(axis=None)`, `var(ddof=)`,
//! `amax`, `abs`, `true_divide`, `mod`), checked on the dump, which also checks the
//! dump format itself.

use super::support::{dump, lower_script};
use crate::ops::{Creation, ElementwiseOp, ReductionOp};
use crate::tileable::{Output, TileOp, TileableGraph};
use marsc_runtime::ops::{BinaryOp, ReduceOp};
use marsc_runtime::random::RandomDist;
use marsc_runtime::DType;

/// The op lines of a dump, without source positions.
fn ops(source: &str) -> Vec<String> {
    dump(source)
        .lines()
        .map(|line| match line.rsplit_once("   @") {
            Some((text, _)) => text.to_string(),
            None => line.to_string(),
        })
        .collect()
}

#[test]
fn clip_is_maximum_then_minimum() {
    assert_eq!(
        ops("x = mt.arange(6)\nprint(mt.clip(x, 1, 4.5), x.clip(max=2))\n"),
        [
            "%0 = arange(start=0i64, step=1i64) : int64 (6,) chunks (6,)",
            "%1 = full(value=1i64) : int64 () chunks ()",
            "%2 = maximum(%0, %1, common=int64) : int64 (6,) chunks (6,)",
            "%3 = full(value=4.5f64) : float64 () chunks ()",
            "%4 = minimum(%2, %3, common=float64) : float64 (6,) chunks (6,)",
            "%5 = full(value=2i64) : int64 () chunks ()",
            "%6 = minimum(%0, %5, common=int64) : int64 (6,) chunks (6,)",
            "print(%4, %6, sep=\" \", end=\"\\n\")",
        ]
    );
}

#[test]
fn outer_is_a_broadcast_multiply() {
    assert_eq!(
        ops("print(mt.outer(mt.ones((2, 2)), mt.arange(3)))\n"),
        [
            "%0 = full(value=1.0f64) : float64 (2, 2) chunks (2, 2)",
            "%1 = arange(start=0i64, step=1i64) : int64 (3,) chunks (3,)",
            "%2 = reshape(%0) : float64 (4,) chunks (4,)",
            "%3 = expand_dims(%2, axes=[1]) : float64 (4, 1) chunks (4, 1)",
            "%4 = expand_dims(%1, axes=[0]) : int64 (1, 3) chunks (1, 3)",
            "%5 = multiply(%3, %4, common=float64) : float64 (4, 3) chunks (4, 3)",
            "print(%5, sep=\" \", end=\"\\n\")",
        ]
    );
}

#[test]
fn stacks_are_expand_dims_and_concatenate() {
    assert_eq!(
        ops("print(mt.stack([mt.ones(2), mt.zeros(2, dtype=int)], axis=1))\n"),
        [
            "%0 = full(value=1.0f64) : float64 (2,) chunks (2,)",
            "%1 = full(value=0i64) : int64 (2,) chunks (2,)",
            "%2 = expand_dims(%0, axes=[1]) : float64 (2, 1) chunks (2, 1)",
            "%3 = expand_dims(%1, axes=[1]) : int64 (2, 1) chunks (2, 1)",
            "%4 = astype(%3) : float64 (2, 1) chunks (2, 1)",
            "%5 = concatenate(%2, %4, axis=1) : float64 (2, 2) chunks (2, 1x2)",
            "print(%5, sep=\" \", end=\"\\n\")",
        ]
    );
    assert_eq!(
        ops("print(mt.hstack([mt.ones(2), mt.zeros(3)]))\n")[2],
        "%2 = concatenate(%0, %1, axis=0) : float64 (5,) chunks (2+3,)"
    );
    assert_eq!(
        ops("print(mt.hstack([mt.ones((2, 1)), mt.zeros((2, 3))]))\n")[2],
        "%2 = concatenate(%0, %1, axis=1) : float64 (2, 4) chunks (2, 1+3)"
    );
    assert_eq!(
        ops("print(mt.vstack([mt.ones(2), mt.zeros(2)]))\n")[2..5],
        [
            "%2 = expand_dims(%0, axes=[0]) : float64 (1, 2) chunks (1, 2)",
            "%3 = expand_dims(%1, axes=[0]) : float64 (1, 2) chunks (1, 2)",
            "%4 = concatenate(%2, %3, axis=0) : float64 (2, 2) chunks (1x2, 2)",
        ]
    );
}

#[test]
fn dot_and_matmul_of_vectors() {
    assert_eq!(
        ops("print(mt.dot(mt.ones(3), mt.ones(3)))\n")[2..6],
        [
            "%2 = expand_dims(%0, axes=[0]) : float64 (1, 3) chunks (1, 3)",
            "%3 = expand_dims(%1, axes=[1]) : float64 (3, 1) chunks (3, 1)",
            "%4 = matmul(%2, %3) : float64 (1, 1) chunks (1, 1)",
            "%5 = squeeze(%4, axes=[0, 1]) : float64 () chunks ()",
        ]
    );
    assert_eq!(
        ops("print(mt.ones((2, 3)) @ mt.ones(3))\n")[2..5],
        [
            "%2 = expand_dims(%1, axes=[1]) : float64 (3, 1) chunks (3, 1)",
            "%3 = matmul(%0, %2) : float64 (2, 1) chunks (2, 1)",
            "%4 = squeeze(%3, axes=[1]) : float64 (2,) chunks (2,)",
        ]
    );
    assert_eq!(
        ops("print(mt.dot(mt.ones(3), 2))\n")[2],
        "%2 = multiply(%0, %1, common=float64) : float64 (3,) chunks (3,)"
    );
    assert_eq!(
        ops("a = mt.ones((2, 3), dtype='float32')\nprint(a @ mt.ones((3, 2), dtype='int32'))\n")
            [2..4],
        [
            "%2 = astype(%0) : float64 (2, 3) chunks (2, 3)",
            "%3 = astype(%1) : float64 (3, 2) chunks (3, 2)",
        ],
        "both operands of matmul are cast to the promoted dtype"
    );
}

#[test]
fn shape_conveniences() {
    let x = "x = mt.ones((2, 3))\n";
    assert_eq!(
        ops(&format!("{x}print(mt.swapaxes(x, 0, -1))\n"))[1],
        "%1 = transpose(%0, axes=[1, 0]) : float64 (3, 2) chunks (3, 2)"
    );
    assert_eq!(
        ops(&format!("{x}print(x.ravel())\n"))[1],
        "%1 = reshape(%0) : float64 (6,) chunks (6,)"
    );
    assert_eq!(
        ops(&format!("{x}print(x[None, 1, ::-1])\n"))[1],
        "%1 = index(%0, [newaxis, 1, 2::-1]) : float64 (1, 3) chunks (1, 3)"
    );
    assert_eq!(
        ops(&format!("{x}print(mt.broadcast_to(x, (4, 2, 3)))\n"))[1],
        "%1 = broadcast_to(%0) : float64 (4, 2, 3) chunks (4, 2, 3)"
    );
    // No-op shape changes do not add nodes.
    assert_eq!(
        ops(&format!(
            "{x}print(x.reshape(2, 3)[...], x.squeeze(), x.transpose(0, 1), x[:, :])\n"
        ))
        .len(),
        2
    );
}

#[test]
fn reshape_rechunks_when_its_plan_needs_it() {
    let lines = ops("x = mt.ones((4, 6), chunks=(2, 3))\nprint(x.reshape(24))\n");
    assert_eq!(
        lines[1..3],
        [
            "%1 = rechunk(%0) : float64 (4, 6) chunks (1x4, 6)",
            "%2 = reshape(%1) : float64 (24,) chunks (6x4,)",
        ]
    );
}

#[test]
fn creation_conveniences() {
    assert_eq!(
        ops("x = mt.ones((2, 3), chunks=(1, 3))\nprint(mt.empty(2), mt.identity(2), mt.zeros_like(x), mt.full_like(x, 7.9, dtype=int))\n")[..4],
        [
            "%0 = full(value=0.0f64) : float64 (2,) chunks (2,)",
            "%1 = eye(k=0) : float64 (2, 2) chunks (2, 2)",
            "%2 = full(value=0.0f64) : float64 (2, 3) chunks (1x2, 3)",
            "%3 = full(value=7i64) : int64 (2, 3) chunks (1x2, 3)",
        ],
        "`x` itself is pruned: the `*_like` results only take its shape and chunks"
    );
    assert_eq!(
        ops("print(mt.linspace(-1.5, 2, 5, dtype=int))\n")[1..3],
        [
            "%1 = floor(%0) : float64 (5,) chunks (5,)",
            "%2 = astype(%1) : int64 (5,) chunks (5,)",
        ]
    );
    assert_eq!(
        ops("print(mt.arange(1, 2, 0.25, dtype='float32'), mt.eye(2, 3, k=-1))\n")[..2],
        [
            "%0 = arange(start=1.0f32, step=0.25f32) : float32 (4,) chunks (4,)",
            "%1 = eye(k=-1) : float64 (2, 3) chunks (2, 3)",
        ]
    );
    assert_eq!(
        ops("print(mt.tensor([[1, 2], [3, 4]], chunks=1))\n")[0],
        "%0 = literal([1i64, 2i64, 3i64, 4i64]) : int64 (2, 2) chunks (1x2, 1x2)"
    );
}

#[test]
fn reductions_and_scans() {
    let x = "x = mt.ones((2, 3), dtype='int32')\n";
    assert_eq!(
        ops(&format!(
            "{x}print(x.var(axis=(0, -1), ddof=1), mt.amax(x, 1, keepdims=True))\n"
        ))[1..3],
        [
            "%1 = var(%0, axes=[0, 1], keepdims=False, ddof=1.0) : float64 () chunks ()",
            "%2 = max(%0, axes=[1], keepdims=True) : int32 (2, 1) chunks (2, 1)",
        ]
    );
    assert_eq!(
        ops(&format!("{x}print(mt.cumsum(x), x.cumprod(axis=1))\n"))[1..4],
        [
            "%1 = reshape(%0) : int32 (6,) chunks (6,)",
            "%2 = cumsum(%1, axis=0) : int64 (6,) chunks (6,)",
            "%3 = cumprod(%0, axis=1) : int64 (2, 3) chunks (2, 3)",
        ]
    );
    assert_eq!(
        ops(&format!("{x}print(x.sum(dtype='int32'))\n"))[1..3],
        [
            "%1 = sum(%0, axes=[0, 1], keepdims=False) : int64 () chunks ()",
            "%2 = astype(%1) : int32 () chunks ()",
        ],
        "dtype= gives NumPy's result dtype"
    );
}

#[test]
fn aliases_map_to_their_ops() {
    let graph = lower_script(
        "x = mt.arange(4)\nprint(abs(x), mt.true_divide(x, 2), mt.mod(x, 3), mt.amin(x), mt.mean(x), mt.std(x))\n",
    )
    .unwrap();
    let ops: Vec<&TileOp> = graph.ids().map(|id| &graph.node(id).op).collect();
    assert!(ops.contains(&&TileOp::Elementwise(ElementwiseOp::Unary(
        marsc_runtime::ops::UnaryOp::Absolute
    ))));
    let binary: Vec<BinaryOp> = ops
        .iter()
        .filter_map(|op| match op {
            TileOp::Elementwise(ElementwiseOp::Binary { op, .. }) => Some(*op),
            _ => None,
        })
        .collect();
    assert_eq!(binary, [BinaryOp::Divide, BinaryOp::Remainder]);
    let reductions: Vec<ReduceOp> = ops
        .iter()
        .filter_map(|op| match op {
            TileOp::Reduce(ReductionOp::Reduce { reduction, .. }) => Some(reduction.op),
            _ => None,
        })
        .collect();
    assert_eq!(reductions, [ReduceOp::Min, ReduceOp::Mean, ReduceOp::Std]);
}

#[test]
fn where_casts_its_operands() {
    assert_eq!(
        ops("x = mt.arange(3)\nprint(mt.where(x, x, 0.5))\n")[1..5],
        [
            "%1 = astype(%0) : bool (3,) chunks (3,)",
            "%2 = astype(%0) : float64 (3,) chunks (3,)",
            "%3 = full(value=0.5f64) : float64 () chunks ()",
            "%4 = where(%1, %2, %3) : float64 (3,) chunks (3,)",
        ]
    );
}

fn random_ops(graph: &TileableGraph) -> Vec<(RandomDist, u64, u64)> {
    graph
        .ids()
        .filter_map(|id| match graph.node(id).op {
            TileOp::Create(Creation::Random { dist, seed, stream }) => Some((dist, seed, stream)),
            _ => None,
        })
        .collect()
}

#[test]
fn random_streams_and_seeds() {
    let graph = lower_script(
        "a = mt.random.rand(2, 3)\nmt.random.seed(42)\nb = mt.random.normal(1, 2, size=4)\n\
         c = mt.random.randint(10, size=(2,), chunks=1)\nd = mt.random.uniform(high=3)\n\
         print(a, b, c, d)\n",
    )
    .unwrap();
    assert_eq!(
        random_ops(&graph),
        [
            (RandomDist::Uniform01, 0, 0),
            (
                RandomDist::Normal {
                    loc: 1.0,
                    scale: 2.0
                },
                42,
                0
            ),
            (RandomDist::Randint { low: 0, high: 10 }, 42, 1),
            (
                RandomDist::Uniform {
                    low: 0.0,
                    high: 3.0
                },
                42,
                2
            ),
        ]
    );
    let shapes: Vec<&[usize]> = graph
        .ids()
        .map(|id| graph.node(id).shape.as_slice())
        .collect();
    assert_eq!(shapes, [&[2, 3][..], &[4], &[2], &[]]);
    assert_eq!(
        graph.node(crate::tileable::TileableId(2)).nsplits,
        [vec![1, 1]]
    );
    let graph = lower_script("print(mt.random.randint(1, 6, 3, dtype='int32'))\n").unwrap();
    assert_eq!(
        graph.node(crate::tileable::TileableId(1)).dtype,
        DType::Int32
    );
}

#[test]
fn chunk_specs_and_automatic_chunks() {
    let graph = lower_script(
        "a = mt.ones((10, 7), chunk_size=(4, None))\nb = mt.ones((10, 7), chunks=((5, 5), -1))\n\
         c = mt.ones((1000, 1000))\nprint(a, b, c, a.rechunk(5))\n",
    )
    .unwrap();
    let splits = |i: u32| graph.node(crate::tileable::TileableId(i)).nsplits.clone();
    assert_eq!(splits(0), [vec![4, 4, 2], vec![7]]);
    assert_eq!(splits(1), [vec![5, 5], vec![7]]);
    assert_eq!(
        splits(2),
        [vec![1000], vec![1000]],
        "8 MB fits one 128 MiB chunk"
    );
    assert_eq!(splits(3), [vec![5, 5], vec![5, 2]]);
    let small = crate::lower::LowerOptions {
        chunk_bytes: 1 << 20,
        ..Default::default()
    };
    let graph = super::support::lower_with("print(mt.ones((1000, 1000)))\n", &small).unwrap();
    let nsplits = &graph.node(crate::tileable::TileableId(0)).nsplits;
    assert!(nsplits.iter().all(|axis| axis.len() > 1), "{nsplits:?}");
    assert!(nsplits
        .iter()
        .all(|axis| axis.iter().sum::<usize>() == 1000));
}

#[test]
fn outputs_in_program_order_and_pruned() {
    let graph = lower_script(
        "a = mt.ones(3)\nunused = mt.zeros(5) * 2\nmt.save('first', a + 1)\nprint('x', a)\n\
         np.save('second.npy', a)\nmt.arange(4).sum()\n",
    )
    .unwrap();
    assert_eq!(graph.len(), 3, "only what the outputs need");
    match &graph.outputs[..] {
        [Output::Save { path: first, .. }, Output::Print { .. }, Output::Save { path: second, .. }] =>
        {
            assert_eq!(first.to_str(), Some("first.npy"));
            assert_eq!(second.to_str(), Some("second.npy"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn dumps_are_deterministic() {
    let source =
        "a = mt.random.rand(40, 30, chunks=7)\nb = (a.T @ a).sum(axis=0)\nprint(b[::3], a.shape)\n";
    let first = dump(source);
    for _ in 0..3 {
        assert_eq!(dump(source), first);
    }
    assert!(
        first.ends_with("print(%4, \"(40, 30)\", sep=\" \", end=\"\\n\")   @3:1\n"),
        "{first}"
    );
}

#[test]
fn ten_thousand_statements_lower() {
    let mut source = String::from("import mars.tensor as mt\n");
    for i in 0..2_000 {
        source.push_str(&format!(
            "a{i} = mt.ones((10, 8), chunks=4) * {i}\nb{i} = a{i}.sum(axis=0) + 1\nc{i} = b{i}[::2]\nn{i} = c{i}.shape[0] // 2\nprint(c{i}, n{i})\n"
        ));
    }
    let graph = lower_script(&source).unwrap();
    assert_eq!(graph.outputs.len(), 2_000);
}
