//! float16 in compiled kernels against the interpreter, bit for bit: every one of the
//! 65,536 float16 bit patterns through arithmetic, chained ops (rounded to float16
//! after each op, as NumPy's loops: a kernel that kept float32 between two float16 ops
//! fails here), functions, comparisons, `where` and casts to every dtype; every
//! float32 and float64 rounding case around each float16 (ties, one ulp either side)
//! narrowed to float16; and a property test of random float16 programs that must
//! compile.

use super::tests::{
    assert_same, interpret, jit, op, program, push_reduction, reduce_map, subtask, Step,
};
use crate::array::ArrayData;
use crate::chunk_kernel::{ChunkValue, Kernel};
use crate::dtype::DType;
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};
use crate::plan::{OpArg, PlanOp};
use crate::scalar::Scalar;
use half::f16;
use ndarray::{ArrayD, IxDyn};
use proptest::prelude::*;

/// Every float16, by bit pattern.
fn every_float16() -> ChunkValue {
    let values: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    ChunkValue::Array(ArrayData::Float16(
        ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("shape"),
    ))
}

fn constant(value: Scalar) -> PlanOp<Kernel> {
    op(
        Kernel::Full {
            shape: vec![],
            value,
        },
        &[],
    )
}

fn binary(op_: BinaryOp, common: DType, x: OpArg, y: OpArg) -> PlanOp<Kernel> {
    op(Kernel::Binary { op: op_, common }, &[x, y])
}

/// The raw bits of every element (NaN payloads included).
fn bits(value: &ChunkValue) -> (DType, Vec<u64>) {
    let data = value.array().expect("an array");
    let bits = match data {
        ArrayData::Float16(a) => a.iter().map(|v| u64::from(v.to_bits())).collect(),
        ArrayData::Float32(a) => a.iter().map(|v| u64::from(v.to_bits())).collect(),
        ArrayData::Float64(a) => a.iter().map(|v| v.to_bits()).collect(),
        other => (0..other.len())
            .map(|i| {
                let scalar = other.get_flat(i).expect("in range");
                crate::jit::leaves::scalar_bits(scalar)
            })
            .collect(),
    };
    (data.dtype(), bits)
}

/// The kernel runs compiled and gives the interpreter's bits exactly.
fn assert_bit_identical(ops: Vec<PlanOp<Kernel>>, inputs: &[ChunkValue], what: &str) {
    let expected = interpret(&ops, inputs).expect("the interpreter runs");
    let got = jit(&subtask(ops, inputs.len()), inputs).expect("float16 kernels compile");
    let (expected_dtype, expected) = bits(&expected);
    let (got_dtype, got) = bits(&got);
    assert_eq!(expected_dtype, got_dtype, "{what}");
    if let Some(i) = (0..expected.len()).find(|&i| expected[i] != got[i]) {
        panic!(
            "{what}: element {i} (input {:#06x}): interpreter {:#x}, jit {:#x}",
            i, expected[i], got[i]
        );
    }
    assert_eq!(expected.len(), got.len(), "{what}");
}

#[test]
fn every_float16_through_arithmetic_functions_and_casts() {
    use OpArg::{Input, Local};
    let x = every_float16();
    let one = || constant(Scalar::Float16(f16::ONE));
    let half_ = DType::Float16;
    let cases: Vec<(&str, Vec<PlanOp<Kernel>>)> = vec![
        (
            "x + 1",
            vec![one(), binary(BinaryOp::Add, half_, Input(0), Local(0))],
        ),
        (
            "x * x",
            vec![binary(BinaryOp::Multiply, half_, Input(0), Input(0))],
        ),
        // Rounded to float16 between the ops: without it, most results differ.
        (
            "x * x + x",
            vec![
                binary(BinaryOp::Multiply, half_, Input(0), Input(0)),
                binary(BinaryOp::Add, half_, Local(0), Input(0)),
            ],
        ),
        (
            "(x * 3 - 1) / 7",
            vec![
                constant(Scalar::Float16(f16::from_f32(3.0))),
                binary(BinaryOp::Multiply, half_, Input(0), Local(0)),
                one(),
                binary(BinaryOp::Subtract, half_, Local(1), Local(2)),
                constant(Scalar::Float16(f16::from_f32(7.0))),
                binary(BinaryOp::Divide, half_, Local(3), Local(4)),
            ],
        ),
        (
            "sqrt(x)",
            vec![op(Kernel::Unary(UnaryOp::Sqrt), &[Input(0)])],
        ),
        ("exp(x)", vec![op(Kernel::Unary(UnaryOp::Exp), &[Input(0)])]),
        (
            "sqrt(x * x + x)",
            vec![
                binary(BinaryOp::Multiply, half_, Input(0), Input(0)),
                binary(BinaryOp::Add, half_, Local(0), Input(0)),
                op(Kernel::Unary(UnaryOp::Sqrt), &[Local(1)]),
            ],
        ),
        (
            "maximum(x, 1) % 0.3",
            vec![
                one(),
                binary(BinaryOp::Maximum, half_, Input(0), Local(0)),
                constant(Scalar::Float16(f16::from_f32(0.3))),
                binary(BinaryOp::Remainder, half_, Local(1), Local(2)),
            ],
        ),
        (
            "x + float32 0.1 (float32)",
            vec![
                constant(Scalar::Float32(0.1)),
                binary(BinaryOp::Add, DType::Float32, Input(0), Local(0)),
            ],
        ),
        (
            "x < 1",
            vec![one(), binary(BinaryOp::Less, half_, Input(0), Local(0))],
        ),
        (
            "isnan(x)",
            vec![op(Kernel::Unary(UnaryOp::IsNan), &[Input(0)])],
        ),
        (
            "where(x, x * 2, -x)",
            vec![
                constant(Scalar::Float16(f16::from_f32(2.0))),
                binary(BinaryOp::Multiply, half_, Input(0), Local(0)),
                op(Kernel::Unary(UnaryOp::Negative), &[Input(0)]),
                op(Kernel::Where, &[Input(0), Local(1), Local(2)]),
            ],
        ),
    ];
    for (what, ops) in cases {
        assert_bit_identical(ops, std::slice::from_ref(&x), what);
    }
    for to in DType::ALL.into_iter().filter(|d| !d.is_complex()) {
        let ops = vec![op(Kernel::Cast(to), &[Input(0)])];
        assert_bit_identical(ops, std::slice::from_ref(&x), &format!("astype({to})"));
        // And back: each dtype's values (from every float16) rounded to float16.
        let ops = vec![
            op(Kernel::Cast(to), &[Input(0)]),
            op(Kernel::Unary(UnaryOp::Square), &[Local(0)]),
            op(Kernel::Cast(DType::Float16), &[Local(1)]),
        ];
        if to != DType::Bool {
            let what = format!("square(x.astype({to})).astype(float16)");
            assert_bit_identical(ops, std::slice::from_ref(&x), &what);
        }
    }
}

/// Around every finite float16 `h` and the next one up: `h`, the midpoint (a tie), and
/// the values `steps` ulps of the wider type either side of each.
fn rounding_cases<T: Copy>(widen: impl Fn(f64) -> T, step: impl Fn(T, i64) -> T) -> Vec<T> {
    let mut values = Vec::new();
    for bits in 0..0x7c00u16 {
        for sign in [0, 0x8000] {
            let low = f16::from_bits(bits | sign).to_f64();
            let high = f16::from_bits((bits + 1) | sign).to_f64();
            for center in [low, (low + high) / 2.0] {
                let center = widen(center);
                for k in [-2, -1, 0, 1, 2] {
                    values.push(step(center, k));
                }
            }
        }
    }
    values
}

#[test]
fn every_float32_and_float64_rounding_case_narrows_as_the_interpreter() {
    let singles = rounding_cases(
        |v| v as f32,
        |v, k| f32::from_bits((v.to_bits() as i64 + k) as u32),
    );
    let mut singles = singles;
    singles.extend([f32::NAN, -f32::NAN, f32::INFINITY, f32::MIN, 1e-45, -3e-40]);
    singles.push(f32::from_bits(0x7f80_0001)); // a signalling NaN
    singles.push(f32::from_bits(0xffa0_1234));
    let len = singles.len();
    let x = ChunkValue::Array(ArrayData::Float32(
        ArrayD::from_shape_vec(IxDyn(&[len]), singles).expect("shape"),
    ));
    let ops = vec![op(Kernel::Cast(DType::Float16), &[OpArg::Input(0)])];
    assert_bit_identical(ops, &[x], "float32 astype(float16)");

    // float64 rounds once: values a float32 step would round onto a float16 tie.
    let doubles = rounding_cases(|v| v, |v, k| v + v * f64::EPSILON * k as f64 * 1e5);
    let mut doubles = doubles;
    doubles.extend([f64::NAN, 1e300, -1e300, 1e-300, 65520.0, 65519.99]);
    let len = doubles.len();
    let x = ChunkValue::Array(ArrayData::Float64(
        ArrayD::from_shape_vec(IxDyn(&[len]), doubles).expect("shape"),
    ));
    let ops = vec![op(Kernel::Cast(DType::Float16), &[OpArg::Input(0)])];
    assert_bit_identical(ops, &[x], "float64 astype(float16)");
}

fn float16_array(shape: &[usize], value: impl Fn(usize) -> f32) -> ChunkValue {
    let len: usize = shape.iter().product();
    let values: Vec<f16> = (0..len).map(|i| f16::from_f32(value(i))).collect();
    ChunkValue::Array(ArrayData::Float16(
        ArrayD::from_shape_vec(IxDyn(shape), values).expect("shape"),
    ))
}

#[test]
fn float16_reduction_tails_compile_and_keep_the_interpreters_float32_totals() {
    use OpArg::{Input, Local};
    let ops_of = |reduce: ReduceOp, axes: Vec<usize>, shape: &[usize], chained: bool| {
        if chained {
            // (x * 2 + 1) rounded to float16 twice, then reduced.
            vec![
                constant(Scalar::Float16(f16::from_f32(2.0))),
                binary(BinaryOp::Multiply, DType::Float16, Input(0), Local(0)),
                constant(Scalar::Float16(f16::ONE)),
                binary(BinaryOp::Add, DType::Float16, Local(1), Local(2)),
                op(reduce_map(reduce, axes, shape), &[Local(3)]),
            ]
        } else {
            vec![op(reduce_map(reduce, axes, shape), &[Input(0)])]
        }
    };
    let reductions = [
        ReduceOp::Sum,
        ReduceOp::Mean,
        ReduceOp::Prod,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::All,
        ReduceOp::Any,
        ReduceOp::CountNonzero,
    ];
    // Runs shorter and longer than a pairwise block and than NumPy's 8192-element
    // cast buffer, whole axes and leading axes (rows accumulated).
    let cases: Vec<(Vec<usize>, Vec<Vec<usize>>)> = vec![
        (vec![0], vec![vec![0]]),
        (vec![7], vec![vec![0]]),
        (vec![300], vec![vec![0]]),
        (vec![20_001], vec![vec![0]]),
        (vec![6, 5], vec![vec![0], vec![1], vec![0, 1]]),
        (vec![3, 9000], vec![vec![1], vec![0]]),
        (vec![4, 3, 5], vec![vec![0, 1], vec![2], vec![1]]),
    ];
    for (shape, axes_list) in cases {
        // Finite values (states compare with `==`), some exact zeros.
        let x = float16_array(&shape, |i| ((i as f32 * 0.37).sin() * 3.0).round() / 4.0);
        for axes in axes_list {
            for reduce in reductions {
                for chained in [false, true] {
                    let ops = ops_of(reduce, axes.clone(), &shape, chained);
                    let inputs = std::slice::from_ref(&x);
                    let expected = interpret(&ops, inputs).expect("the interpreter runs");
                    let Some(got) = jit(&subtask(ops, 1), inputs) else {
                        // Float sums the JIT leaves to the interpreter's own order
                        // (`checked_kernel`), as it does for float32.
                        let single = op(reduce_map(reduce, axes.clone(), &shape), &[Input(0)]);
                        let x32 = crate::kernels::cast(x.array().expect("data"), DType::Float32);
                        let compiled = jit(&subtask(vec![single], 1), &[ChunkValue::Array(x32)]);
                        assert!(
                            compiled.is_none(),
                            "{} over {axes:?} of {shape:?}: float32 compiles",
                            reduce.name()
                        );
                        continue;
                    };
                    assert_eq!(
                        expected,
                        got,
                        "{} over {axes:?} of {shape:?} (chained: {chained})",
                        reduce.name()
                    );
                }
            }
        }
    }
    // NaNs, infinities and signed zeros through the extremes and truth tails.
    let special = [
        0.0,
        -0.0,
        f32::NAN,
        1.5,
        f32::INFINITY,
        -2.0,
        f32::NEG_INFINITY,
    ];
    let x = float16_array(&[7, 6], |i| special[(i * 5 + i / 7) % special.len()]);
    for reduce in reductions {
        for axes in [vec![0], vec![1], vec![0, 1]] {
            let ops = ops_of(reduce, axes, &[7, 6], false);
            assert_same(&subtask(ops, 1), std::slice::from_ref(&x));
        }
    }
}

/// The CLIF of the one kernel the subtask compiles to.
fn kernel_ir(ops: Vec<PlanOp<Kernel>>, inputs: &[ChunkValue]) -> String {
    let (built, _) = crate::jit_rewrite::jit_subtask(
        &subtask(ops, inputs.len()),
        &super::tests::input_infos(inputs),
    )
    .expect("compiles")
    .expect("eligible");
    built
        .iter()
        .find_map(|op| match &op.kernel {
            Kernel::Jit(jit) => Some(jit.kernel.ir.clone()),
            _ => None,
        })
        .expect("a JIT op")
}

/// `(x * 2 + 1)`, rounded to float16 after each op, as ops over input 0.
fn chained() -> Vec<PlanOp<Kernel>> {
    use OpArg::{Input, Local};
    vec![
        constant(Scalar::Float16(f16::from_f32(2.0))),
        binary(BinaryOp::Multiply, DType::Float16, Input(0), Local(0)),
        constant(Scalar::Float16(f16::ONE)),
        binary(BinaryOp::Add, DType::Float16, Local(1), Local(2)),
    ]
}

#[test]
fn every_float16_through_lane_comparisons_masks_where_and_casts() {
    use OpArg::{Input, Local};
    let x = every_float16();
    let half_ = DType::Float16;
    let c = |v: f32| constant(Scalar::Float16(f16::from_f32(v)));
    let mut cases: Vec<(String, Vec<PlanOp<Kernel>>)> = Vec::new();
    for compare in [
        BinaryOp::Equal,
        BinaryOp::NotEqual,
        BinaryOp::Less,
        BinaryOp::LessEqual,
        BinaryOp::Greater,
        BinaryOp::GreaterEqual,
    ] {
        cases.push((
            format!("{}(x, 1.5)", compare.name()),
            vec![c(1.5), binary(compare, half_, Input(0), Local(0))],
        ));
        // Rounded twice before the comparison: x * 2 + 1 > 2 differs from the
        // float32 chain near 0.5.
        let mut ops = chained();
        ops.extend([c(2.0), binary(compare, half_, Local(3), Local(4))]);
        cases.push((format!("{}(x * 2 + 1, 2)", compare.name()), ops));
    }
    let masks = vec![
        c(-1.0),
        binary(BinaryOp::Greater, half_, Input(0), Local(0)),
        c(1.0),
        binary(BinaryOp::Less, half_, Input(0), Local(2)),
    ];
    for logic in [
        BinaryOp::LogicalAnd,
        BinaryOp::LogicalOr,
        BinaryOp::LogicalXor,
        BinaryOp::BitwiseAnd,
        BinaryOp::BitwiseOr,
        BinaryOp::BitwiseXor,
    ] {
        let mut ops = masks.clone();
        ops.push(binary(logic, DType::Bool, Local(1), Local(3)));
        ops.push(op(Kernel::Unary(UnaryOp::LogicalNot), &[Local(4)]));
        ops.push(op(Kernel::Unary(UnaryOp::Invert), &[Local(5)]));
        ops.push(binary(logic, DType::Bool, Local(6), Local(1)));
        cases.push((
            format!("{0}(~!{0}(x > -1, x < 1), x > -1)", logic.name()),
            ops,
        ));
    }
    for unary in [
        UnaryOp::IsNan,
        UnaryOp::IsInf,
        UnaryOp::IsFinite,
        UnaryOp::LogicalNot,
    ] {
        cases.push((
            format!("{}(x * 2)", unary.name()),
            vec![
                c(2.0),
                binary(BinaryOp::Multiply, half_, Input(0), Local(0)),
                op(Kernel::Unary(unary), &[Local(1)]),
            ],
        ));
    }
    cases.extend([
        (
            "where(x > 0, x * 2, 0.5)".to_string(),
            vec![
                c(0.0),
                binary(BinaryOp::Greater, half_, Input(0), Local(0)),
                c(2.0),
                binary(BinaryOp::Multiply, half_, Input(0), Local(2)),
                c(0.5),
                op(Kernel::Where, &[Local(1), Local(3), Local(4)]),
            ],
        ),
        ("where(x * 2 + 1 > 2, x * 2 + 1, -x) * 3".to_string(), {
            let mut ops = chained();
            ops.extend([
                c(2.0),
                binary(BinaryOp::Greater, half_, Local(3), Local(4)),
                op(Kernel::Unary(UnaryOp::Negative), &[Input(0)]),
                op(Kernel::Where, &[Local(5), Local(3), Local(6)]),
                c(3.0),
                binary(BinaryOp::Multiply, half_, Local(7), Local(8)),
            ]);
            ops
        }),
        (
            "(x > 1).astype(float16) + x".to_string(),
            vec![
                c(1.0),
                binary(BinaryOp::Greater, half_, Input(0), Local(0)),
                op(Kernel::Cast(half_), &[Local(1)]),
                binary(BinaryOp::Add, half_, Local(2), Input(0)),
            ],
        ),
        (
            "(x * 2).astype(bool)".to_string(),
            vec![
                c(2.0),
                binary(BinaryOp::Multiply, half_, Input(0), Local(0)),
                op(Kernel::Cast(DType::Bool), &[Local(1)]),
            ],
        ),
        (
            "x.astype(float32)".to_string(),
            vec![op(Kernel::Cast(DType::Float32), &[Input(0)])],
        ),
        (
            "((x * 3).astype(float32) * 0.1).astype(float16) / 3".to_string(),
            vec![
                c(3.0),
                binary(BinaryOp::Multiply, half_, Input(0), Local(0)),
                op(Kernel::Cast(DType::Float32), &[Local(1)]),
                constant(Scalar::Float32(0.1)),
                binary(BinaryOp::Multiply, DType::Float32, Local(2), Local(3)),
                op(Kernel::Cast(half_), &[Local(4)]),
                c(3.0),
                binary(BinaryOp::Divide, half_, Local(5), Local(6)),
            ],
        ),
    ]);
    for (what, ops) in cases {
        let ir = kernel_ir(ops.clone(), std::slice::from_ref(&x));
        assert!(ir.contains("f32x4"), "{what}: no SIMD loop");
        assert_bit_identical(ops, std::slice::from_ref(&x), &what);
    }
}

/// The float16 kernels of `bench/float16.py` (and their leading-axis forms) fold in
/// SIMD lanes and keep the scalar fold's results: counts, any/all of comparisons,
/// float32 pairwise sums and means, and float32 totals of rows.
#[test]
fn float16_lane_tails_keep_the_scalar_folds_results() {
    use OpArg::Local;
    let compare = |reduce: ReduceOp, axes: Vec<usize>, shape: &[usize], threshold: f32| {
        let mut ops = chained();
        ops.extend([
            constant(Scalar::Float16(f16::from_f32(threshold))),
            binary(BinaryOp::Greater, DType::Float16, Local(3), Local(4)),
            op(reduce_map(reduce, axes, shape), &[Local(5)]),
        ]);
        ops
    };
    let values = |i: usize| ((i as f32 * 0.37).sin() * 3.0).round() / 4.0 + 0.3;
    // Runs of every length around the 8-element step, and long ones.
    let mut shapes: Vec<Vec<usize>> = (0..20).map(|n| vec![n]).collect();
    shapes.extend([vec![20_001], vec![3, 9000], vec![6, 37], vec![5, 4, 19]]);
    for shape in shapes {
        let x = float16_array(&shape, values);
        let inputs = std::slice::from_ref(&x);
        let all_axes: Vec<usize> = (0..shape.len()).collect();
        let mut axes_list = vec![all_axes];
        if shape.len() > 1 {
            axes_list.push(vec![0]);
        }
        for axes in axes_list {
            for reduce in [
                ReduceOp::Sum,
                ReduceOp::CountNonzero,
                ReduceOp::Any,
                ReduceOp::All,
            ] {
                // Thresholds some, none and all elements pass.
                for threshold in [1.5, 100.0, -100.0] {
                    let ops = compare(reduce, axes.clone(), &shape, threshold);
                    assert_same(&subtask(ops, 1), inputs);
                }
            }
            for reduce in [ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Prod, ReduceOp::Max] {
                let mut ops = chained();
                ops.push(op(reduce_map(reduce, axes.clone(), &shape), &[Local(3)]));
                if jit(&subtask(ops.clone(), 1), inputs).is_some() {
                    assert_same(&subtask(ops, 1), inputs);
                }
                // The same over float32 values of the float16 chain.
                let mut ops = chained();
                ops.push(op(Kernel::Cast(DType::Float32), &[Local(3)]));
                ops.push(op(reduce_map(reduce, axes.clone(), &shape), &[Local(4)]));
                if jit(&subtask(ops.clone(), 1), inputs).is_some() {
                    assert_same(&subtask(ops, 1), inputs);
                }
            }
        }
    }
    // Extremes whose lanes cannot decide alone: zeros of both signs (the scalar fold
    // keeps the last equal one) and NaNs (the first), against plain lane maxima.
    for pattern in 0..8usize {
        let x = float16_array(&[203], |i| {
            if pattern >= 4 && i == (pattern * 31) % 203 {
                f32::NAN
            } else if (i * 7 + pattern) % 13 == 0 {
                if (i / 13 + pattern) % 2 == 0 {
                    0.0
                } else {
                    -0.0
                }
            } else if pattern % 2 == 0 {
                -1.0 - (i % 5) as f32
            } else {
                (i % 9) as f32 * 0.5 - 2.0
            }
        });
        let inputs = std::slice::from_ref(&x);
        for reduce in [ReduceOp::Max, ReduceOp::Min] {
            let direct = vec![op(reduce_map(reduce, vec![0], &[203]), &[OpArg::Input(0)])];
            let negated = vec![
                op(Kernel::Unary(UnaryOp::Negative), &[OpArg::Input(0)]),
                op(reduce_map(reduce, vec![0], &[203]), &[Local(0)]),
            ];
            let widened = vec![
                op(Kernel::Cast(DType::Float32), &[OpArg::Input(0)]),
                op(reduce_map(reduce, vec![0], &[203]), &[Local(0)]),
            ];
            for ops in [direct, negated, widened] {
                assert!(kernel_ir(ops.clone(), inputs).contains("f32x4"));
                assert_same(&subtask(ops, 1), inputs);
            }
        }
    }
    // The four bench kernels' loops are SIMD.
    let x = float16_array(&[100], values);
    let inputs = std::slice::from_ref(&x);
    let mut mean = chained();
    mean.push(op(reduce_map(ReduceOp::Mean, vec![0], &[100]), &[Local(3)]));
    let count = compare(ReduceOp::Sum, vec![0], &[100], 2.0);
    let mut sqrt = chained();
    sqrt.push(op(Kernel::Unary(UnaryOp::Sqrt), &[Local(3)]));
    let mut widened_max = vec![op(Kernel::Cast(DType::Float32), &[Local(3)])];
    widened_max.splice(0..0, chained());
    widened_max.push(op(reduce_map(ReduceOp::Max, vec![0], &[100]), &[Local(4)]));
    for ops in [mean, count, sqrt, widened_max] {
        assert!(kernel_ir(ops, inputs).contains("f32x4"));
    }
}

// ---- random float16 programs: they must compile, and match ----

const SPECIAL: [f32; 14] = [
    0.0,
    -0.0,
    0.1,
    1.5,
    -2.5,
    3.0,
    1000.0,
    65504.0,
    6e-8,
    -6.1e-5,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    0.333,
];

const FLOATS: [DType; 3] = [DType::Float16, DType::Float32, DType::Float64];

fn step_strategy() -> impl Strategy<Value = Step> {
    let index = 0usize..64;
    let float = prop::sample::select(FLOATS.to_vec());
    prop_oneof![
        (prop::sample::select(UnaryOp::ALL.to_vec()), index.clone())
            .prop_map(|(o, a)| Step::Unary(o, a)),
        (
            prop::sample::select(BinaryOp::ALL.to_vec()),
            index.clone(),
            index.clone()
        )
            .prop_map(|(o, a, b)| Step::Binary(o, a, b)),
        (float.clone(), index.clone()).prop_map(|(d, a)| Step::Cast(d, a)),
        (index.clone(), index.clone(), index).prop_map(|(c, a, b)| Step::Where(c, a, b)),
        (prop::sample::select(SPECIAL.to_vec()), float)
            .prop_map(|(v, d)| Step::Constant(f64::from(v), d)),
    ]
}

fn float16_input() -> impl Strategy<Value = ChunkValue> {
    // Rows of 17 and 9 run the SIMD loop (8 elements a step) and a scalar tail.
    let shapes: Vec<Vec<usize>> = vec![
        vec![3, 4],
        vec![4],
        vec![1, 4],
        vec![],
        vec![2, 3, 4],
        vec![17],
        vec![2, 9],
    ];
    prop::sample::select(shapes).prop_flat_map(|shape| {
        let len: usize = shape.iter().product();
        prop::collection::vec(prop::sample::select(SPECIAL.to_vec()), len).prop_map(move |v| {
            let values: Vec<f16> = v.into_iter().map(f16::from_f32).collect();
            ChunkValue::Array(ArrayData::Float16(
                ArrayD::from_shape_vec(IxDyn(&shape), values).expect("shape"),
            ))
        })
    })
}

/// The inputs of the first one's shape (operands broadcast together, as the
/// planner's are).
fn same_shape_as_first(inputs: Vec<ChunkValue>) -> Vec<ChunkValue> {
    let shape = inputs[0].array().expect("data").shape().to_vec();
    inputs
        .into_iter()
        .filter(|input| input.array().expect("data").shape() == shape.as_slice())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_float16_programs_compile_and_match_the_interpreter(
        inputs in prop::collection::vec(float16_input(), 1..3),
        steps in prop::collection::vec(step_strategy(), 1..8),
    ) {
        let inputs = same_shape_as_first(inputs);
        let ops = program(&vec![DType::Float16; inputs.len()], &steps, true);
        // A lone constant has nothing to compile.
        prop_assume!(ops.last().is_some_and(|last| !matches!(last.kernel, Kernel::Full { .. })));
        let expected = interpret(&ops, &inputs);
        prop_assume!(expected.is_ok());
        let expected = expected.expect("checked");
        let got = jit(&subtask(ops, inputs.len()), &inputs);
        let got = got.expect("every float program compiles");
        let ((de, e), (dg, g)) = (bits(&expected), bits(&got));
        prop_assert_eq!(de, dg);
        // NaN payloads aside (the random program's NaNs come from either operand).
        let nan = |dtype: DType, v: u64| match dtype {
            DType::Float16 => f16::from_bits(v as u16).is_nan(),
            DType::Float32 => f32::from_bits(v as u32).is_nan(),
            _ => f64::from_bits(v).is_nan(),
        };
        for (x, y) in e.iter().zip(&g) {
            prop_assert!(x == y || (nan(de, *x) && nan(de, *y)), "{:#x} vs {:#x}", x, y);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random float16 programs with their comparisons and bools kept (masks in
    /// lanes), folded by any reduction: whatever compiles matches the interpreter.
    #[test]
    fn random_float16_programs_with_masks_and_tails_match_the_interpreter(
        inputs in prop::collection::vec(float16_input(), 1..3),
        steps in prop::collection::vec(step_strategy(), 1..8),
        reduce in prop::option::of((prop::sample::select(ReduceOp::ALL.to_vec()), 0usize..4)),
    ) {
        let inputs = same_shape_as_first(inputs);
        let mut ops = program(&vec![DType::Float16; inputs.len()], &steps, false);
        prop_assume!(ops.last().is_some_and(|last| !matches!(last.kernel, Kernel::Full { .. })));
        let expected = interpret(&ops, &inputs);
        prop_assume!(expected.is_ok());
        push_reduction(&mut ops, reduce, &expected);
        let subtask = subtask(ops, inputs.len());
        prop_assume!(interpret(&subtask.ops, &inputs).is_ok());
        if jit(&subtask, &inputs).is_some() {
            assert_same(&subtask, &inputs);
        }
    }
}
