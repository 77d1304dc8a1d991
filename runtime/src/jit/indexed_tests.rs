//! Indexed leaves (random, arange) against the interpreter in every loop mode: chunks
//! anywhere in 2-d tensors, rows longer than a fill block, leaves broadcast along the
//! row or across rows, stored or reduced (pairwise sums, folds, row accumulation).

use super::*;
use crate::array::ArrayData;
use crate::chunk_kernel::Kernel;
use crate::chunk_kernel::{ChunkValue, RandomSpec};
use crate::dtype::DType;
use crate::jit_rewrite::*;
use crate::kernels::reduce::reduce_finish;
use crate::ops::{BinaryOp, ReduceOp, Reduction};
use crate::plan::{ChunkId, OpArg, PlanOp, Subtask};
use crate::random::RandomDist;
use crate::scalar::Scalar;
use ndarray::{ArrayD, IxDyn};
use proptest::prelude::*;

fn op(kernel: Kernel, args: &[OpArg]) -> PlanOp<Kernel> {
    PlanOp {
        kernel,
        args: args.into(),
    }
}

fn run(ops: &[PlanOp<Kernel>], inputs: &[ChunkValue]) -> ChunkValue {
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

/// The finished array of a value (reduction states are finished with keepdims).
fn finished(value: &ChunkValue) -> ArrayData {
    match value {
        ChunkValue::Array(data) => data.clone(),
        _ => {
            let state = value.state().expect("a state");
            reduce_finish(
                Reduction {
                    op: state.op(),
                    ddof: 0.0,
                },
                state,
                true,
            )
            .expect("finishes")
        }
    }
}

fn random(
    dist: RandomDist,
    stream: u64,
    global: &[usize],
    offset: &[usize],
    shape: &[usize],
) -> Kernel {
    Kernel::Random {
        spec: Arc::new(RandomSpec {
            dist,
            seed: 11,
            stream,
            shape: global.to_vec(),
        }),
        offset: offset.to_vec(),
        shape: shape.to_vec(),
    }
}

fn add(x: u32, y: u32) -> PlanOp<Kernel> {
    op(
        Kernel::Binary {
            op: BinaryOp::Add,
            common: DType::Float64,
        },
        &[OpArg::Local(x), OpArg::Local(y)],
    )
}

/// `uniform * input + normal`, plus `arange(row) + randn(rows, 1)` (leaves broadcast
/// across rows and along the row) when `broadcast_leaves`, optionally reduced.
fn program(
    global: [usize; 2],
    offset: [usize; 2],
    shape: [usize; 2],
    broadcast_leaves: bool,
    reduce: Option<(ReduceOp, Vec<usize>)>,
) -> Vec<PlanOp<Kernel>> {
    let mut ops = vec![
        op(
            random(RandomDist::Uniform01, 0, &global, &offset, &shape),
            &[],
        ),
        op(
            Kernel::Binary {
                op: BinaryOp::Multiply,
                common: DType::Float64,
            },
            &[OpArg::Local(0), OpArg::Input(0)],
        ),
        op(
            random(
                RandomDist::Normal {
                    loc: 1.0,
                    scale: 3.0,
                },
                1,
                &global,
                &offset,
                &shape,
            ),
            &[],
        ),
        add(1, 2),
    ];
    if broadcast_leaves {
        ops.extend(broadcast_leaf_ops(global, offset, shape));
    }
    if let Some((reduce, axes)) = reduce {
        let root = ops.len() as u32 - 1;
        ops.push(op(
            Kernel::ReduceMap {
                spec: Arc::new(crate::chunk_kernel::ReduceSpec {
                    reduction: Reduction {
                        op: reduce,
                        ddof: 0.0,
                    },
                    axes,
                    input_shape: global.to_vec(),
                }),
                offset: offset.to_vec(),
            },
            &[OpArg::Local(root)],
        ));
    }
    ops
}

/// Adds `arange(row)` and `randn(rows, 1)` to op 3.
fn broadcast_leaf_ops(
    global: [usize; 2],
    offset: [usize; 2],
    shape: [usize; 2],
) -> Vec<PlanOp<Kernel>> {
    vec![
        op(
            Kernel::Arange {
                start: Scalar::Float64(0.5),
                step: Scalar::Float64(0.25),
                offset: offset[1],
                len: shape[1],
            },
            &[],
        ),
        add(3, 4),
        op(
            random(
                RandomDist::StandardNormal,
                2,
                &[global[0], 1],
                &[offset[0], 0],
                &[shape[0], 1],
            ),
            &[],
        ),
        add(5, 6),
    ]
}

fn placement() -> impl Strategy<Value = ([usize; 2], [usize; 2], [usize; 2])> {
    (
        1usize..5,
        1usize..1200,
        0usize..3,
        0usize..40,
        0usize..3,
        0usize..40,
    )
        .prop_map(|(rows, cols, top, left, bottom, right)| {
            (
                [top + rows + bottom, left + cols + right],
                [top, left],
                [rows, cols],
            )
        })
}

fn reduction() -> impl Strategy<Value = Option<(ReduceOp, Vec<usize>)>> {
    prop::sample::select(vec![
        None,
        Some((ReduceOp::Sum, vec![0, 1])),
        Some((ReduceOp::Sum, vec![1])),
        Some((ReduceOp::Mean, vec![0, 1])),
        Some((ReduceOp::Max, vec![0])),
        Some((ReduceOp::Max, vec![0, 1])),
        Some((ReduceOp::Min, vec![1])),
        Some((ReduceOp::Prod, vec![1])),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn indexed_leaves_give_the_interpreters_bits(
        (global, offset, shape) in placement(),
        broadcast_leaves in any::<bool>(),
        reduce in reduction(),
    ) {
        let len = shape[0] * shape[1];
        let input = ChunkValue::Array(ArrayData::Float64(
            ArrayD::from_shape_vec(IxDyn(&shape), (0..len).map(|v| (v as f64 * 0.7).cos()).collect())
                .expect("shape"),
        ));
        let ops = program(global, offset, shape, broadcast_leaves, reduce.clone());
        let last = ops.len() as u32 - 1;
        let subtask = Subtask {
            ops: ops.into(),
            inputs: [ChunkId(0)].into_iter().collect(),
            outputs: [(last, ChunkId(1000))].into_iter().collect(),
            priority: 0,
            worker: None,
            label: 0,
        };
        let info = InputInfo { dtype: DType::Float64, shape: shape.to_vec() };
        let Some((jit_ops, outputs)) = jit_subtask(&subtask, &[info]).expect("compiles") else {
            // Only a float sum whose runs are split over rows stays interpreted.
            let split_sum = matches!(&reduce, Some((ReduceOp::Sum | ReduceOp::Mean, axes)) if axes.len() == 2);
            prop_assert!(broadcast_leaves && split_sum && shape[0] > 1, "not compiled");
            return Ok(());
        };
        prop_assert!(jit_ops.iter().any(|op| matches!(op.kernel, Kernel::Jit(_))));
        let expected = finished(&run(&subtask.ops, std::slice::from_ref(&input)));
        let got = finished(&run(&jit_ops[..=outputs[0].0 as usize], std::slice::from_ref(&input)));
        match (&expected, &got) {
            (ArrayData::Float64(x), ArrayData::Float64(y)) => {
                prop_assert_eq!(x.shape(), y.shape());
                for (a, b) in x.iter().zip(y.iter()) {
                    prop_assert!(a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                        "{:?}: interpreter {} jit {}", reduce, a, b);
                }
            }
            _ => prop_assert_eq!(&expected, &got),
        }
    }
}

/// `(eye(k) + input) ** exponent` over an int64 chunk anywhere in its tensor,
/// optionally summed along the row.
fn eye_power_program(
    offset: [usize; 2],
    shape: [usize; 2],
    k: i64,
    exponent: i64,
    sum_rows: bool,
) -> Vec<PlanOp<Kernel>> {
    let int64 = |op| Kernel::Binary {
        op,
        common: DType::Int64,
    };
    let mut ops = vec![
        op(
            Kernel::Eye {
                shape,
                row_offset: offset[0],
                col_offset: offset[1],
                k,
                dtype: DType::Int64,
            },
            &[],
        ),
        op(int64(BinaryOp::Add), &[OpArg::Local(0), OpArg::Input(0)]),
        op(
            Kernel::Full {
                shape: Vec::new(),
                value: Scalar::Int64(exponent),
            },
            &[],
        ),
        op(int64(BinaryOp::Power), &[OpArg::Local(1), OpArg::Local(2)]),
    ];
    if sum_rows {
        ops.push(op(
            Kernel::ReduceMap {
                spec: Arc::new(crate::chunk_kernel::ReduceSpec {
                    reduction: Reduction {
                        op: ReduceOp::Sum,
                        ddof: 0.0,
                    },
                    axes: vec![1],
                    input_shape: vec![offset[0] + shape[0], offset[1] + shape[1]],
                }),
                offset: offset.to_vec(),
            },
            &[OpArg::Local(3)],
        ));
    }
    ops
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn eye_and_integer_powers_give_the_interpreters_values(
        (_, offset, shape) in placement(),
        k in -45i64..45,
        exponent in -2i64..5,
        sum_rows in any::<bool>(),
    ) {
        let len = shape[0] * shape[1];
        // Small values, so that a negative exponent's error is the only one possible.
        let input = ChunkValue::Array(ArrayData::Int64(
            ArrayD::from_shape_vec(IxDyn(&shape), (0..len).map(|v| (v % 7) as i64 - 3).collect())
                .expect("shape"),
        ));
        let subtask = Subtask {
            ops: eye_power_program(offset, shape, k, exponent, sum_rows).into(),
            inputs: [ChunkId(0)].into_iter().collect(),
            outputs: [(3 + u32::from(sum_rows), ChunkId(1000))].into_iter().collect(),
            priority: 0,
            worker: None,
            label: 0,
        };
        let info = InputInfo { dtype: DType::Int64, shape: shape.to_vec() };
        let compiled = jit_subtask(&subtask, &[info]).expect("compiles");
        if exponent < 0 {
            // NumPy's error for a negative integer exponent comes from the interpreter.
            let interpreted_power = |ops: &[PlanOp<Kernel>]| {
                ops.iter().any(|op| matches!(op.kernel, Kernel::Binary { op: BinaryOp::Power, .. }))
            };
            if let Some((jit_ops, _)) = compiled {
                prop_assert!(interpreted_power(&jit_ops), "a negative exponent was compiled");
            }
            return Ok(());
        }
        let (jit_ops, outputs) = compiled.expect("compiled");
        prop_assert!(jit_ops.iter().any(|op| matches!(op.kernel, Kernel::Jit(_))));
        let expected = finished(&run(&subtask.ops, std::slice::from_ref(&input)));
        let got = finished(&run(&jit_ops[..=outputs[0].0 as usize], std::slice::from_ref(&input)));
        prop_assert_eq!(expected, got);
    }
}
