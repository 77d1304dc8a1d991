//! Random numbers in ns per element (divan's items/s): the scalar Philox reference
//! against the batch fill of every compiled build this CPU runs, for uniforms and
//! normals, and a JIT kernel `rand(n) + rand(n) -> sum` against the interpreter
//! (`cargo bench -p marsc-runtime --bench random`).

use divan::counter::ItemsCount;
use marsc_runtime::chunk_kernel::{ChunkValue, Kernel, RandomSpec, ReduceSpec};
use marsc_runtime::jit_rewrite::jit_subtask;
use marsc_runtime::ops::{BinaryOp, ReduceOp, Reduction};
use marsc_runtime::plan::{ChunkId, OpArg, PlanOp, Subtask};
use marsc_runtime::random::simd::{self, Isa};
use marsc_runtime::random::{fill_standard_normal, RandomDist, RandomKey};
use marsc_runtime::DType;
use std::sync::Arc;

/// Elements per batch call: one interpreter row of a small chunk, in L2.
const BATCH: usize = 1 << 14;
/// Elements of the JIT kernel's chunk.
const CHUNK: usize = 1 << 20;

const KEY: RandomKey = RandomKey {
    seed: 42,
    stream: 7,
};

fn main() {
    divan::main();
}

#[divan::bench]
fn uniform_scalar(bencher: divan::Bencher) {
    let mut out = vec![0.0; BATCH];
    bencher.counter(ItemsCount::new(BATCH)).bench_local(|| {
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = KEY.uniform01(i as u64);
        }
        divan::black_box(&out);
    });
}

#[divan::bench(args = Isa::supported())]
fn uniform_batch(bencher: divan::Bencher, isa: Isa) {
    let mut out = vec![0.0; BATCH];
    bencher
        .counter(ItemsCount::new(BATCH))
        .bench_local(|| simd::uniform01(isa, KEY, 0, divan::black_box(&mut out)));
}

#[divan::bench]
fn normal_scalar(bencher: divan::Bencher) {
    let mut out = vec![0.0; BATCH];
    bencher.counter(ItemsCount::new(BATCH)).bench_local(|| {
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = KEY.standard_normal(i as u64);
        }
        divan::black_box(&out);
    });
}

#[divan::bench]
fn normal_batch(bencher: divan::Bencher) {
    let mut out = vec![0.0; BATCH];
    bencher
        .counter(ItemsCount::new(BATCH))
        .bench_local(|| fill_standard_normal(KEY, 0, divan::black_box(&mut out)));
}

fn rand_op(stream: u64) -> PlanOp<Kernel> {
    PlanOp {
        kernel: Kernel::Random {
            spec: Arc::new(RandomSpec {
                dist: RandomDist::Uniform01,
                seed: 42,
                stream,
                shape: vec![CHUNK],
            }),
            offset: vec![0],
            shape: vec![CHUNK],
        },
        args: Default::default(),
    }
}

/// `(rand(n) + rand(n)).sum()`'s map step on one chunk.
fn rand_sum_ops() -> Vec<PlanOp<Kernel>> {
    vec![
        rand_op(0),
        rand_op(1),
        PlanOp {
            kernel: Kernel::Binary {
                op: BinaryOp::Add,
                common: DType::Float64,
            },
            args: [OpArg::Local(0), OpArg::Local(1)].into_iter().collect(),
        },
        PlanOp {
            kernel: Kernel::ReduceMap {
                spec: Arc::new(ReduceSpec {
                    reduction: Reduction {
                        op: ReduceOp::Sum,
                        ddof: 0.0,
                    },
                    axes: vec![0],
                    input_shape: vec![CHUNK],
                }),
                offset: vec![0],
            },
            args: [OpArg::Local(2)].into_iter().collect(),
        },
    ]
}

fn interpret(ops: &[PlanOp<Kernel>]) -> ChunkValue {
    let mut values: Vec<ChunkValue> = Vec::new();
    for op in ops {
        let args: Vec<&ChunkValue> = op
            .args
            .iter()
            .map(|arg| match *arg {
                OpArg::Local(i) => &values[i as usize],
                OpArg::Input(_) => unreachable!("the random sum reads no inputs"),
            })
            .collect();
        values.push(op.kernel.compute(&args).expect("runs"));
    }
    values.pop().expect("one op")
}

#[divan::bench]
fn rand_sum_interpreter(bencher: divan::Bencher) {
    let ops = rand_sum_ops();
    bencher
        .counter(ItemsCount::new(2 * CHUNK))
        .bench_local(|| interpret(&ops));
}

#[divan::bench]
fn rand_sum_jit(bencher: divan::Bencher) {
    let subtask = Subtask {
        ops: rand_sum_ops().into(),
        inputs: Default::default(),
        outputs: [(3, ChunkId(0))].into_iter().collect(),
        priority: 0,
        worker: None,
        label: 0,
    };
    let (ops, _) = jit_subtask(&subtask, &[])
        .expect("compiles")
        .expect("eligible");
    let op = ops.last().expect("one op").clone();
    assert!(matches!(op.kernel, Kernel::Jit(_)), "not a JIT op");
    bencher
        .counter(ItemsCount::new(2 * CHUNK))
        .bench_local(|| op.kernel.compute(&[]).expect("runs"));
}
