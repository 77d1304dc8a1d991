//! The JIT against the interpreter: hand-built multi-op subtasks (with creation leaves
//! and reduction tails), a differential property test over random expression trees
//! and dtypes, the kernel cache (one compile for many chunks) and the size of `Kernel`.

use super::*;
use crate::array::ArrayData;
use crate::chunk_kernel::Kernel;
use crate::chunk_kernel::{ChunkValue, LiteralSpec, RandomSpec};
use crate::dtype::DType;
use crate::jit_rewrite::*;
use crate::kernels::reduce::reduce_finish;
use crate::ops::{BinaryOp, ReduceOp, Reduction, UnaryOp};
use crate::plan::{ChunkId, OpArg, PlanOp, Subtask};
use crate::random::RandomDist;
use crate::scalar::Scalar;
use ndarray::{ArrayD, IxDyn};
use proptest::prelude::*;

pub(super) fn subtask(ops: Vec<PlanOp<Kernel>>, inputs: usize) -> Subtask<Kernel> {
    let last = ops.len() as u32 - 1;
    Subtask {
        ops: ops.into(),
        inputs: (0..inputs as u32).map(ChunkId).collect(),
        outputs: [(last, ChunkId(1000))].into_iter().collect(),
        priority: 0,
        worker: None,
        label: 0,
    }
}

pub(super) fn op(kernel: Kernel, args: &[OpArg]) -> PlanOp<Kernel> {
    PlanOp {
        kernel,
        args: args.into(),
    }
}

/// Runs the subtask's ops one by one in the interpreter; the last op's value.
pub(super) fn interpret(
    ops: &[PlanOp<Kernel>],
    inputs: &[ChunkValue],
) -> Result<ChunkValue, String> {
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
        let value = op.kernel.compute(&args).map_err(|e| e.to_string())?;
        values.push(value);
    }
    values.pop().ok_or_else(|| "no ops".to_string())
}

/// Compiles the subtask and runs the rewritten ops (JIT ops, and any op left
/// interpreted after them); `None` if nothing was compiled.
pub(super) fn jit(subtask: &Subtask<Kernel>, inputs: &[ChunkValue]) -> Option<ChunkValue> {
    let (ops, outputs) = jit_subtask(subtask, &input_infos(inputs)).expect("compiles")?;
    assert!(ops.iter().any(|op| matches!(op.kernel, Kernel::Jit(_))));
    let [(output, _)] = outputs.as_slice() else {
        panic!("one output expected: {outputs:?}");
    };
    let value = interpret(&ops[..=*output as usize], inputs).expect("the JIT ops run");
    Some(value)
}

/// What the planner knows of each input chunk.
pub(super) fn input_infos(inputs: &[ChunkValue]) -> Vec<InputInfo> {
    inputs
        .iter()
        .map(|value| {
            let data = value.array().expect("data input");
            InputInfo {
                dtype: data.dtype(),
                shape: data.shape().to_vec(),
            }
        })
        .collect()
}

/// Bit equality, except that any NaN equals any NaN.
fn same_bits(a: &ArrayData, b: &ArrayData) -> bool {
    if a.dtype() != b.dtype() || a.shape() != b.shape() {
        return false;
    }
    match (a, b) {
        (ArrayData::Float64(x), ArrayData::Float64(y)) => x
            .iter()
            .zip(y.iter())
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        (ArrayData::Float32(x), ArrayData::Float32(y)) => x
            .iter()
            .zip(y.iter())
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        (ArrayData::Float16(x), ArrayData::Float16(y)) => x
            .iter()
            .zip(y.iter())
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        // Complex runs interpreted on both sides; NaN parts compare as equal.
        (ArrayData::Complex64(x), ArrayData::Complex64(y)) => x
            .iter()
            .zip(y.iter())
            .all(|(p, q)| p.to_le_bytes() == q.to_le_bytes() || (p.is_nan() && q.is_nan())),
        (ArrayData::Complex128(x), ArrayData::Complex128(y)) => x
            .iter()
            .zip(y.iter())
            .all(|(p, q)| p.to_le_bytes() == q.to_le_bytes() || (p.is_nan() && q.is_nan())),
        _ => a == b,
    }
}

fn finish(value: &ChunkValue, op: ReduceOp) -> Result<ArrayData, String> {
    let state = value.state().map_err(|e| e.to_string())?;
    reduce_finish(Reduction { op, ddof: 0.0 }, state, true).map_err(|e| e.to_string())
}

pub(super) fn assert_same(subtask: &Subtask<Kernel>, inputs: &[ChunkValue]) {
    let expected = interpret(&subtask.ops, inputs).expect("the interpreter runs");
    let got = jit(subtask, inputs).expect("eligible");
    match (&expected, &got) {
        (ChunkValue::Array(x), ChunkValue::Array(y)) => {
            assert!(same_bits(x, y), "interpreter {x:?}\njit {y:?}")
        }
        (ChunkValue::State(x), ChunkValue::State(_)) => {
            let finished_x = finish(&expected, x.op());
            let finished_y = finish(&got, x.op());
            match (finished_x, finished_y) {
                (Ok(x), Ok(y)) => assert!(same_bits(&x, &y), "interpreter {x:?}\njit {y:?}"),
                (x, y) => assert_eq!(x.is_err(), y.is_err(), "{x:?} vs {y:?}"),
            }
        }
        _ => panic!("different kinds: {expected:?} vs {got:?}"),
    }
}

pub(super) fn f64_array(shape: &[usize], values: Vec<f64>) -> ChunkValue {
    ChunkValue::Array(ArrayData::Float64(
        ArrayD::from_shape_vec(IxDyn(shape), values).expect("shape"),
    ))
}

#[test]
fn kernel_stays_small() {
    assert!(
        std::mem::size_of::<Kernel>() <= 64,
        "{}",
        std::mem::size_of::<Kernel>()
    );
}

#[test]
fn fused_arithmetic_with_a_broadcast_constant() {
    // a * 2.0 + b * 3.0 - 1.0 with b broadcast along rows.
    let a = f64_array(&[3, 4], (0..12).map(|v| v as f64 * 0.5 - 2.0).collect());
    let b = f64_array(&[4], vec![1.0, f64::NAN, -0.0, 1e308]);
    let two = Kernel::Full {
        shape: vec![],
        value: Scalar::Float64(2.0),
    };
    let mul = |x, y| {
        op(
            Kernel::Binary {
                op: BinaryOp::Multiply,
                common: DType::Float64,
            },
            &[x, y],
        )
    };
    let ops = vec![
        op(two.clone(), &[]),
        mul(OpArg::Input(0), OpArg::Local(0)),
        op(
            Kernel::Full {
                shape: vec![],
                value: Scalar::Float64(3.0),
            },
            &[],
        ),
        mul(OpArg::Input(1), OpArg::Local(2)),
        op(
            Kernel::Binary {
                op: BinaryOp::Add,
                common: DType::Float64,
            },
            &[OpArg::Local(1), OpArg::Local(3)],
        ),
        op(
            Kernel::Binary {
                op: BinaryOp::Subtract,
                common: DType::Float64,
            },
            &[OpArg::Local(4), OpArg::Input(0)],
        ),
    ];
    assert_same(&subtask(ops, 2), &[a, b]);
}

#[test]
fn creation_leaves_give_the_interpreters_bits() {
    let random = Kernel::Random {
        spec: Arc::new(RandomSpec {
            dist: RandomDist::StandardNormal,
            seed: 7,
            stream: 3,
            shape: vec![5, 40],
        }),
        offset: vec![2, 10],
        shape: vec![3, 25],
    };
    let arange = Kernel::Arange {
        start: Scalar::Float64(0.1),
        step: Scalar::Float64(0.3),
        offset: 5,
        len: 25,
    };
    let linspace = Kernel::Linspace {
        start: -1.0,
        stop: 2.0,
        num: 77,
        endpoint: true,
        dtype: DType::Int32,
        offset: 52,
        len: 25,
    };
    let literal = Kernel::Literal {
        spec: Arc::new(LiteralSpec {
            values: (0..6).map(|v| Scalar::Int64(v * 3 - 4)).collect(),
            dtype: DType::Int64,
            shape: vec![6, 1],
        }),
        offset: vec![3, 0],
        shape: vec![3, 1],
    };
    let add = |x, y| {
        op(
            Kernel::Binary {
                op: BinaryOp::Add,
                common: DType::Float64,
            },
            &[x, y],
        )
    };
    let ops = vec![
        op(random, &[]),
        op(arange, &[]),
        add(OpArg::Local(0), OpArg::Local(1)),
        op(linspace, &[]),
        add(OpArg::Local(2), OpArg::Local(3)),
        op(literal, &[]),
        add(OpArg::Local(4), OpArg::Local(5)),
        op(Kernel::Unary(UnaryOp::Exp), &[OpArg::Local(6)]),
    ];
    assert_same(&subtask(ops, 0), &[]);
}

pub(super) fn reduce_map(op: ReduceOp, axes: Vec<usize>, shape: &[usize]) -> Kernel {
    Kernel::ReduceMap {
        spec: Arc::new(ReduceSpec {
            reduction: Reduction { op, ddof: 0.0 },
            axes,
            input_shape: shape.to_vec(),
        }),
        offset: vec![0; shape.len()],
    }
}

#[test]
fn sums_are_bit_identical_to_the_interpreters_pairwise_sums() {
    for len in [0, 1, 7, 8, 9, 127, 128, 129, 1000, 20_001] {
        let a = f64_array(
            &[len],
            (0..len).map(|v| (v as f64 * 0.37).sin() * 1e3).collect(),
        );
        for reduce in [ReduceOp::Sum, ReduceOp::Mean] {
            let ops = vec![
                op(Kernel::Unary(UnaryOp::Square), &[OpArg::Input(0)]),
                op(reduce_map(reduce, vec![0], &[len]), &[OpArg::Local(0)]),
            ];
            let expected = interpret(&ops, std::slice::from_ref(&a)).expect("runs");
            let got = jit(&subtask(ops, 1), std::slice::from_ref(&a)).expect("eligible");
            assert_eq!(expected, got, "{} of {len}", reduce.name());
        }
    }
}

#[test]
fn float32_and_int_means_sum_through_cast_buffers() {
    let n = 20_000;
    let a = ChunkValue::Array(ArrayData::Float32(
        ArrayD::from_shape_vec(IxDyn(&[n]), (0..n).map(|v| (v as f32).sqrt()).collect())
            .expect("shape"),
    ));
    let ops = vec![op(
        reduce_map(ReduceOp::Mean, vec![0], &[n]),
        &[OpArg::Input(0)],
    )];
    let expected = interpret(&ops, std::slice::from_ref(&a)).expect("runs");
    let got = jit(&subtask(ops, 1), std::slice::from_ref(&a)).expect("eligible");
    assert_eq!(expected, got);
}

#[test]
fn reductions_over_leading_axes_accumulate_rows() {
    let a = f64_array(
        &[6, 5],
        (0..30).map(|v| ((v * 7) % 11) as f64 - 5.0).collect(),
    );
    for reduce in [
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::Prod,
        ReduceOp::All,
        ReduceOp::Any,
        ReduceOp::CountNonzero,
    ] {
        for axes in [vec![0], vec![1], vec![0, 1]] {
            let ops = vec![op(
                reduce_map(reduce, axes.clone(), &[6, 5]),
                &[OpArg::Input(0)],
            )];
            assert_same(&subtask(ops, 1), std::slice::from_ref(&a));
        }
    }
}

#[test]
fn float_sums_over_leading_axes_add_rows_as_the_interpreter_does() {
    // Columns whose pairwise sums (24.0) differ from NumPy's row-by-row sums (23.0).
    let column = |i: usize| [1e16, 1.0, -1e16, 3.0][(i / 3) % 4] * (1.0 + (i % 3) as f64);
    for shape in [vec![24, 3], vec![4, 6, 3], vec![2, 12, 3]] {
        let len = shape.iter().product();
        let a = f64_array(&shape, (0..len).map(column).collect());
        let axes_choices: Vec<Vec<usize>> = if shape.len() == 2 {
            vec![vec![0]]
        } else {
            vec![vec![0], vec![0, 1], vec![1]]
        };
        for axes in axes_choices {
            for reduce in [ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Prod] {
                let ops = vec![
                    op(Kernel::Unary(UnaryOp::Negative), &[OpArg::Input(0)]),
                    op(reduce_map(reduce, axes.clone(), &shape), &[OpArg::Local(0)]),
                ];
                assert_same(&subtask(ops, 1), std::slice::from_ref(&a));
            }
        }
    }
}

#[test]
fn var_passes_are_the_interpreters() {
    // The tiler's two passes of `var`: a mean tail, then `square(x - mean)` summed,
    // the mean a keepdims buffer broadcast along the reduced axes. Large offsets, and
    // float32 means summed in float32 as NumPy's are.
    let column = |i: usize| [1e8, 1.0, -3.5, 7.25, 0.1][i % 5] + (i / 5) as f64;
    let cases: [(&[usize], Vec<Vec<usize>>); 3] = [
        (&[6, 5], vec![vec![0], vec![1], vec![0, 1]]),
        (
            &[4, 6, 3],
            vec![vec![0], vec![2], vec![1, 2], vec![0, 1], vec![0, 1, 2]],
        ),
        (&[0, 4], vec![vec![0], vec![1]]),
    ];
    for (shape, axes_choices) in cases {
        let len: usize = shape.iter().product();
        let values: Vec<f64> = (0..len).map(column).collect();
        let inputs = [
            f64_array(shape, values.clone()),
            ChunkValue::Array(ArrayData::Float32(
                ArrayD::from_shape_vec(IxDyn(shape), values.iter().map(|&v| v as f32).collect())
                    .expect("shape"),
            )),
            ChunkValue::Array(ArrayData::Int64(
                ArrayD::from_shape_vec(IxDyn(shape), values.iter().map(|&v| v as i64).collect())
                    .expect("shape"),
            )),
        ];
        for input in &inputs {
            let ChunkValue::Array(data) = input else {
                unreachable!("inputs are arrays")
            };
            let dtype = ReduceOp::Var.result_dtype(data.dtype());
            for axes in &axes_choices {
                // Reducing trailing axes (whole runs) or leading ones (by rows) always
                // compiles; other axes may stay interpreted.
                let trailing = axes.iter().all(|&a| a >= shape.len() - axes.len());
                let compiles = trailing || axes[0] == 0 && axes.len() < shape.len();
                let means = subtask(
                    vec![op(
                        reduce_map(ReduceOp::Mean, axes.clone(), shape),
                        &[OpArg::Input(0)],
                    )],
                    1,
                );
                let mean_input = std::slice::from_ref(input);
                let is_jit = jit(&means, mean_input).is_some();
                assert!(is_jit || !compiles, "{shape:?} {axes:?}");
                if is_jit {
                    assert_same(&means, mean_input);
                }
                let ChunkValue::State(state) =
                    interpret(&means.ops, mean_input).expect("the interpreter runs")
                else {
                    panic!("a mean map gives a state")
                };
                let mean = reduce_finish(
                    Reduction {
                        op: ReduceOp::Mean,
                        ddof: 0.0,
                    },
                    &state,
                    true,
                )
                .expect("the mean finishes");
                let ops = vec![
                    op(
                        Kernel::Binary {
                            op: BinaryOp::Subtract,
                            common: dtype,
                        },
                        &[OpArg::Input(0), OpArg::Input(1)],
                    ),
                    op(Kernel::Unary(UnaryOp::Square), &[OpArg::Local(0)]),
                    op(
                        reduce_map(ReduceOp::Sum, axes.clone(), shape),
                        &[OpArg::Local(1)],
                    ),
                ];
                let deviations = subtask(ops, 2);
                let both = [input.clone(), ChunkValue::Array(mean)];
                let is_jit = jit(&deviations, &both).is_some();
                assert!(is_jit || !compiles, "{shape:?} {axes:?}");
                if is_jit {
                    assert_same(&deviations, &both);
                }
            }
        }
    }
}

#[test]
fn arg_states_find_the_interpreters_first_extremes() {
    // Ties, signed zeros and NaNs, in a chunk at an offset inside a bigger tensor.
    let pattern = [
        3.0,
        -0.0,
        7.0,
        0.0,
        7.0,
        f64::NAN,
        -2.0,
        7.0,
        1.0,
        f64::NAN,
        -2.0,
    ];
    // (chunk shape, tensor shape, chunk offset, axes to try)
    type Case<'a> = (&'a [usize], &'a [usize], &'a [usize], Vec<Vec<usize>>);
    let cases: [Case; 3] = [
        (
            &[6, 5],
            &[6, 5],
            &[0, 0],
            vec![vec![0], vec![1], vec![0, 1]],
        ),
        (
            &[4, 6, 3],
            &[9, 10, 7],
            &[2, 3, 1],
            vec![vec![0], vec![2], vec![1, 2], vec![0, 1], vec![0, 1, 2]],
        ),
        (&[0, 4], &[3, 4], &[1, 0], vec![vec![0], vec![1]]),
    ];
    for (shape, global, offset, axes_choices) in cases {
        let len: usize = shape.iter().product();
        let values: Vec<f64> = (0..len).map(|i| pattern[(i * 7) % pattern.len()]).collect();
        let no_nan: Vec<f64> = values
            .iter()
            .map(|&v| if v.is_nan() { 5.0 } else { v })
            .collect();
        let inputs = [
            f64_array(shape, values.clone()),
            f64_array(shape, no_nan.clone()),
            ChunkValue::Array(ArrayData::Float32(
                ArrayD::from_shape_vec(IxDyn(shape), values.iter().map(|&v| v as f32).collect())
                    .expect("shape"),
            )),
            ChunkValue::Array(ArrayData::Int32(
                ArrayD::from_shape_vec(IxDyn(shape), no_nan.iter().map(|&v| v as i32).collect())
                    .expect("shape"),
            )),
            ChunkValue::Array(ArrayData::Bool(
                ArrayD::from_shape_vec(IxDyn(shape), no_nan.iter().map(|&v| v > 2.0).collect())
                    .expect("shape"),
            )),
        ];
        for input in &inputs {
            for axes in &axes_choices {
                for reduce in [ReduceOp::ArgMax, ReduceOp::ArgMin] {
                    let kernel = Kernel::ReduceMap {
                        spec: Arc::new(ReduceSpec {
                            reduction: Reduction {
                                op: reduce,
                                ddof: 0.0,
                            },
                            axes: axes.clone(),
                            input_shape: global.to_vec(),
                        }),
                        offset: offset.to_vec(),
                    };
                    let subtask = subtask(vec![op(kernel, &[OpArg::Input(0)])], 1);
                    let inputs = std::slice::from_ref(input);
                    assert!(jit(&subtask, inputs).is_some(), "{shape:?} {axes:?}");
                    assert_same(&subtask, inputs);
                }
            }
        }
    }
}

#[test]
fn simd_extremes_and_products_over_leading_axes_keep_nans_and_signed_zeros() {
    let numbers = [0.0, -0.0, 1.5, -2.5, f64::INFINITY, 3.0, f64::NEG_INFINITY];
    // NaNs in a few columns only, at different rows, so most columns stay numbers.
    let value = |i: usize| {
        let (row, column) = (i / 11, i % 11);
        if column % 3 == 0 && (row + 2 * column) % 9 == 4 {
            f64::NAN
        } else {
            numbers[(row * 3 + column * 5) % 7]
        }
    };
    let values: Vec<f64> = (0..77).map(value).collect();
    let as_f32 = ChunkValue::Array(ArrayData::Float32(
        ArrayD::from_shape_vec(IxDyn(&[7, 11]), values.iter().map(|&v| v as f32).collect())
            .expect("shape"),
    ));
    for a in [f64_array(&[7, 11], values.clone()), as_f32] {
        for reduce in [ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod, ReduceOp::Sum] {
            let ops = vec![op(
                reduce_map(reduce, vec![0], &[7, 11]),
                &[OpArg::Input(0)],
            )];
            assert_same(&subtask(ops, 1), std::slice::from_ref(&a));
        }
    }
}

#[test]
fn many_chunks_of_one_structure_compile_once() {
    let first = compiled_for_offset(0);
    for offset in 1..10_000 {
        let kernel = compiled_for_offset(offset * 100);
        assert!(
            Arc::ptr_eq(&first, &kernel),
            "chunk {offset} compiled again"
        );
    }
}

#[test]
fn concurrent_requests_for_one_kernel_get_one_compilation_and_time_counts_per_thread() {
    // A structure no other test compiles (an int32 cast after a float32 cast).
    let build = || {
        let ops = vec![
            op(
                Kernel::Arange {
                    start: Scalar::Int64(5),
                    step: Scalar::Int64(3),
                    offset: 0,
                    len: 64,
                },
                &[],
            ),
            op(Kernel::Cast(DType::Float32), &[OpArg::Local(0)]),
            op(Kernel::Cast(DType::Int32), &[OpArg::Local(1)]),
        ];
        let before = thread_compile_seconds();
        let (built, _) = jit_subtask(&subtask(ops, 0), &[])
            .expect("compiles")
            .expect("eligible");
        let spent = thread_compile_seconds() - before;
        match &built[0].kernel {
            Kernel::Jit(jit) => (jit.kernel.clone(), spent),
            other => panic!("not a JIT op: {other:?}"),
        }
    };
    let results: Vec<(Arc<CompiledKernel>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4).map(|_| scope.spawn(build)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    for (kernel, _) in &results[1..] {
        assert!(Arc::ptr_eq(&results[0].0, kernel), "compiled twice");
    }
    // At most one thread compiled (none if another test got there first), and only
    // its clock moved: the others waited for its kernel.
    let compilers = results.iter().filter(|(_, spent)| *spent > 0.0).count();
    let spent: Vec<f64> = results.iter().map(|result| result.1).collect();
    assert!(compilers <= 1, "{spent:?}");
}

fn compiled_for_offset(offset: usize) -> Arc<CompiledKernel> {
    let ops = vec![
        op(
            Kernel::Arange {
                start: Scalar::Int64(3),
                step: Scalar::Int64(2),
                offset,
                len: 100,
            },
            &[],
        ),
        op(Kernel::Cast(DType::Float32), &[OpArg::Local(0)]),
        op(Kernel::Unary(UnaryOp::Sqrt), &[OpArg::Local(1)]),
    ];
    let (built, _) = jit_subtask(&subtask(ops, 0), &[])
        .expect("compiles")
        .expect("eligible");
    match &built[0].kernel {
        Kernel::Jit(jit) => jit.kernel.clone(),
        other => panic!("not a JIT op: {other:?}"),
    }
}

// ---- the differential property test ----

const SPECIAL: [f64; 12] = [
    0.0,
    -0.0,
    1.5,
    -2.5,
    3.0,
    7.0,
    -9.0,
    1e300,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    2.5e9,
];

fn dtype_strategy() -> impl Strategy<Value = DType> {
    prop::sample::select(DType::ALL.to_vec())
}

fn input_strategy() -> impl Strategy<Value = ChunkValue> {
    // Five rows: a reduction over them folds a group of rows per call, then one more.
    let shapes: Vec<Vec<usize>> = vec![
        vec![5, 4],
        vec![4],
        vec![5, 1],
        vec![1, 4],
        vec![],
        vec![2, 5, 4],
    ];
    (dtype_strategy(), prop::sample::select(shapes)).prop_flat_map(|(dtype, shape)| {
        let len: usize = shape.iter().product();
        prop::collection::vec(prop::sample::select(SPECIAL.to_vec()), len).prop_map(move |values| {
            let scalars: Vec<Scalar> = values
                .iter()
                .map(|&v| crate::kernels::cast_scalar(Scalar::Float64(v), dtype))
                .collect();
            ChunkValue::Array(crate::kernels::literal(&shape, &scalars, dtype).expect("literal"))
        })
    })
}

/// One random op: which kind, which operands (indices into the values so far) and
/// which parameters.
#[derive(Clone, Debug)]
pub(super) enum Step {
    Unary(UnaryOp, usize),
    Binary(BinaryOp, usize, usize),
    Cast(DType, usize),
    Where(usize, usize, usize),
    Constant(f64, DType),
}

fn step_strategy() -> impl Strategy<Value = Step> {
    let index = 0usize..64;
    prop_oneof![
        (prop::sample::select(UnaryOp::ALL.to_vec()), index.clone())
            .prop_map(|(o, a)| Step::Unary(o, a)),
        (
            prop::sample::select(BinaryOp::ALL.to_vec()),
            index.clone(),
            index.clone()
        )
            .prop_map(|(o, a, b)| Step::Binary(o, a, b)),
        (dtype_strategy(), index.clone()).prop_map(|(d, a)| Step::Cast(d, a)),
        (index.clone(), index.clone(), index).prop_map(|(c, a, b)| Step::Where(c, a, b)),
        (prop::sample::select(SPECIAL.to_vec()), dtype_strategy())
            .prop_map(|(v, d)| Step::Constant(v, d)),
    ]
}

/// Appends a `reduce.map` tail over the last op's value (`expected`, as the
/// interpreter computed it) when `reduce` picks one: `pick` 0 reduces every axis, 4
/// or 5 a leading block of two axes, any other one axis.
pub(super) fn push_reduction(
    ops: &mut Vec<PlanOp<Kernel>>,
    reduce: Option<(ReduceOp, usize)>,
    expected: &Result<ChunkValue, String>,
) {
    let (Some((reduce, pick)), Ok(ChunkValue::Array(data))) = (reduce, expected) else {
        return;
    };
    let ndim = data.ndim();
    let axes: Vec<usize> = match (ndim, pick) {
        (0, _) => vec![],
        (_, 0) => (0..ndim).collect(),
        (2.., 4 | 5) => vec![0, 1],
        (_, pick) => vec![pick % ndim],
    };
    let last = ops.len() as u32 - 1;
    ops.push(op(
        reduce_map(reduce, axes, data.shape()),
        &[OpArg::Local(last)],
    ));
}

/// Turns random steps into ops over inputs of `input_dtypes`, skipping steps NumPy
/// has no loop for. With `floats_only`, also the steps whose value is not a float
/// and `real`, `imag`, `conjugate`, `angle` (planned for complex inputs only).
pub(super) fn program(
    input_dtypes: &[DType],
    steps: &[Step],
    floats_only: bool,
) -> Vec<PlanOp<Kernel>> {
    let mut values: Vec<(OpArg, DType)> = input_dtypes
        .iter()
        .enumerate()
        .map(|(i, &dtype)| (OpArg::Input(i as u32), dtype))
        .collect();
    let mut ops = Vec::new();
    for step in steps {
        let pick = |i: usize| values[i % values.len()];
        let (kernel, args, dtype) = match *step {
            Step::Unary(UnaryOp::Real | UnaryOp::Imag | UnaryOp::Conjugate | UnaryOp::Angle, _)
                if floats_only =>
            {
                continue
            }
            Step::Unary(unary, a) => {
                let (arg, dtype) = pick(a);
                match unary.result_dtype(dtype) {
                    Ok(out) => (Kernel::Unary(unary), vec![arg], out),
                    Err(_) => continue,
                }
            }
            Step::Binary(binary, a, b) => {
                let ((x, dx), (y, dy)) = (pick(a), pick(b));
                let common = dx.max(dy);
                let int_power = binary == BinaryOp::Power && common.is_int();
                match binary.result_dtype(common) {
                    Ok(out) if !int_power => {
                        (Kernel::Binary { op: binary, common }, vec![x, y], out)
                    }
                    _ => continue,
                }
            }
            Step::Cast(to, a) => (Kernel::Cast(to), vec![pick(a).0], to),
            Step::Where(c, a, b) => {
                let ((cond, _), (x, dx), (y, dy)) = (pick(c), pick(a), pick(b));
                if dx != dy {
                    continue;
                }
                (Kernel::Where, vec![cond, x, y], dx)
            }
            Step::Constant(v, d) => (
                Kernel::Full {
                    shape: vec![],
                    value: crate::kernels::cast_scalar(Scalar::Float64(v), d),
                },
                vec![],
                d,
            ),
        };
        if floats_only && !dtype.is_float() {
            continue;
        }
        ops.push(op(kernel, &args));
        values.push((OpArg::Local(ops.len() as u32 - 1), dtype));
    }
    ops
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn jit_matches_the_interpreter_on_random_expressions(
        inputs in prop::collection::vec(input_strategy(), 1..4),
        steps in prop::collection::vec(step_strategy(), 1..8),
        reduce in prop::option::of((prop::sample::select(ReduceOp::ALL.to_vec()), 0usize..6)),
    ) {
        let dtypes: Vec<DType> = inputs
            .iter()
            .map(|v| v.array().expect("data").dtype())
            .collect();
        let mut ops = program(&dtypes, &steps, false);
        prop_assume!(!ops.is_empty());
        let expected = interpret(&ops, &inputs);
        prop_assume!(expected.is_ok());
        push_reduction(&mut ops, reduce, &expected);
        let subtask = subtask(ops, inputs.len());
        let expected = interpret(&subtask.ops, &inputs);
        prop_assume!(expected.is_ok());
        if jit(&subtask, &inputs).is_some() {
            assert_same(&subtask, &inputs);
        }
    }
}
