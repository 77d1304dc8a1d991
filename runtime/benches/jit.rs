//! JIT kernels against the interpreter on one chunk of 1 million float64 elements:
//! `(a + b).sum()` (a fused reduction) and `a * 2.0 + b * 3.0 - 1.0` (a fused
//! element-wise tree), plus the time to compile a kernel from scratch
//! (`cargo bench -p marsc-runtime --bench jit`).

use marsc_runtime::array::ArrayData;
use marsc_runtime::chunk_kernel::{ChunkValue, Kernel, ReduceSpec};
use marsc_runtime::dtype::DType;
use marsc_runtime::jit::compiled;
use marsc_runtime::jit_rewrite::{jit_subtask, InputInfo};
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction};
use marsc_runtime::plan::{ChunkId, OpArg, PlanOp, Subtask};
use marsc_runtime::scalar::Scalar;
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;

const LEN: usize = 1 << 20;

fn main() {
    divan::main();
}

fn input(seed: f64) -> ChunkValue {
    let values = (0..LEN).map(|i| (i as f64 * seed).sin()).collect();
    ChunkValue::Array(ArrayData::Float64(
        ArrayD::from_shape_vec(IxDyn(&[LEN]), values).expect("shape"),
    ))
}

fn binary(op: BinaryOp, a: OpArg, b: OpArg) -> PlanOp<Kernel> {
    PlanOp {
        kernel: Kernel::Binary {
            op,
            common: DType::Float64,
        },
        args: [a, b].into_iter().collect(),
    }
}

fn constant(value: f64) -> PlanOp<Kernel> {
    PlanOp {
        kernel: Kernel::Full {
            shape: vec![],
            value: Scalar::Float64(value),
        },
        args: Default::default(),
    }
}

fn sum_ops() -> Vec<PlanOp<Kernel>> {
    vec![
        binary(BinaryOp::Add, OpArg::Input(0), OpArg::Input(1)),
        PlanOp {
            kernel: Kernel::ReduceMap {
                spec: Arc::new(ReduceSpec {
                    reduction: Reduction {
                        op: ReduceOp::Sum,
                        ddof: 0.0,
                    },
                    axes: vec![0],
                    input_shape: vec![LEN],
                }),
                offset: vec![0],
            },
            args: [OpArg::Local(0)].into_iter().collect(),
        },
    ]
}

fn affine_ops() -> Vec<PlanOp<Kernel>> {
    use OpArg::{Input, Local};
    vec![
        constant(2.0),
        binary(BinaryOp::Multiply, Input(0), Local(0)),
        constant(3.0),
        binary(BinaryOp::Multiply, Input(1), Local(2)),
        binary(BinaryOp::Add, Local(1), Local(3)),
        constant(1.0),
        binary(BinaryOp::Subtract, Local(4), Local(5)),
    ]
}

fn subtask(ops: Vec<PlanOp<Kernel>>) -> Subtask<Kernel> {
    let last = ops.len() as u32 - 1;
    Subtask {
        ops: ops.into(),
        inputs: [ChunkId(0), ChunkId(1)].into_iter().collect(),
        outputs: [(last, ChunkId(2))].into_iter().collect(),
        priority: 0,
        worker: None,
        label: 0,
    }
}

fn interpret(ops: &[PlanOp<Kernel>], inputs: &[ChunkValue]) -> ChunkValue {
    let mut values: Vec<ChunkValue> = Vec::new();
    for op in ops {
        let args: Vec<&ChunkValue> = op
            .args
            .iter()
            .map(|arg| match *arg {
                OpArg::Input(i) => &inputs[i as usize],
                OpArg::Local(i) => &values[i as usize],
            })
            .collect();
        values.push(op.kernel.compute(&args).expect("runs"));
    }
    values.pop().expect("one op")
}

fn jit_op(ops: Vec<PlanOp<Kernel>>) -> PlanOp<Kernel> {
    let info = InputInfo {
        dtype: DType::Float64,
        shape: vec![LEN],
    };
    let (mut built, _) = jit_subtask(&subtask(ops), &[info.clone(), info])
        .expect("compiles")
        .expect("eligible");
    built.remove(0)
}

#[divan::bench(args = ["sum", "affine"])]
fn interpreter(bencher: divan::Bencher, which: &str) {
    let inputs = [input(0.001), input(0.003)];
    let ops = if which == "sum" {
        sum_ops()
    } else {
        affine_ops()
    };
    bencher.bench_local(|| interpret(&ops, &inputs));
}

#[divan::bench(args = ["sum", "affine"])]
fn jit(bencher: divan::Bencher, which: &str) {
    let inputs = [input(0.001), input(0.003)];
    let op = jit_op(if which == "sum" {
        sum_ops()
    } else {
        affine_ops()
    });
    let args = [&inputs[0], &inputs[1]];
    bencher.bench_local(|| op.kernel.compute(&args).expect("runs"));
}

/// Compiling `a * 2.0 + b * 3.0 - 1.0` (plus a growing chain of no-op casts, so every
/// round misses the cache) from scratch.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn compile_kernel(bencher: divan::Bencher) {
    let op = jit_op(affine_ops());
    let Kernel::Jit(jit) = &op.kernel else {
        panic!("not a JIT op");
    };
    let mut key = jit.kernel.key.clone();
    bencher.bench_local(|| {
        // Each round adds a cast node, which makes a key never seen before.
        key.graph.nodes.push(marsc_runtime::jit::graph::Node {
            kind: marsc_runtime::jit::graph::NodeKind::Cast,
            dtype: DType::Float64,
            args: vec![key.graph.root],
        });
        key.graph.root = key.graph.nodes.len() as u32 - 1;
        compiled(&key).expect("compiles")
    });
}
