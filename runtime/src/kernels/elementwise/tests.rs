//! Unit tests of `unary`, `binary`, `where_` and broadcasting; expected values were
//! computed by NumPy 2.4 on x86-64.

#![allow(
    clippy::approx_constant,
    clippy::excessive_precision,
    reason = "expected values are pasted verbatim from NumPy's float64 repr"
)]

use super::*;
use crate::kernels::binary;
use crate::ops::BinaryOp;
use ndarray::{arr0, arr1, arr2};

fn f64s(values: &[f64]) -> ArrayData {
    ArrayData::Float64(arr1(values).into_dyn())
}

fn f32s(values: &[f32]) -> ArrayData {
    ArrayData::Float32(arr1(values).into_dyn())
}

fn i32s(values: &[i32]) -> ArrayData {
    ArrayData::Int32(arr1(values).into_dyn())
}

fn i64s(values: &[i64]) -> ArrayData {
    ArrayData::Int64(arr1(values).into_dyn())
}

fn bools(values: &[bool]) -> ArrayData {
    ArrayData::Bool(arr1(values).into_dyn())
}

fn float64_values(x: &ArrayData) -> Vec<f64> {
    match x {
        ArrayData::Float64(a) => a.iter().copied().collect(),
        other => panic!("expected float64, got {}", other.dtype()),
    }
}

fn float32_values(x: &ArrayData) -> Vec<f32> {
    match x {
        ArrayData::Float32(a) => a.iter().copied().collect(),
        other => panic!("expected float32, got {}", other.dtype()),
    }
}

/// Distance in units in the last place; NaN is only close to NaN.
fn ulps_f64(a: f64, b: f64) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    let key = |x: f64| {
        let bits = x.to_bits() as i64;
        if bits < 0 {
            i64::MIN - bits
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}

fn ulps_f32(a: f32, b: f32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    let key = |x: f32| {
        let bits = x.to_bits() as i32;
        if bits < 0 {
            i32::MIN - bits
        } else {
            bits
        }
    };
    u64::from(key(a).abs_diff(key(b)))
}

const MATH_INPUTS: [f64; 4] = [0.5, 2.0, -0.3, 10.0];

/// `np.<op>(MATH_INPUTS)` in float64.
#[rustfmt::skip]
const MATH_EXPECTED_F64: &[(UnaryOp, [f64; 4])] = &[
    (UnaryOp::Sqrt, [0.7071067811865476, 1.4142135623730951, f64::NAN, 3.1622776601683795]),
    (UnaryOp::Exp, [1.6487212707001282, 7.38905609893065, 0.7408182206817179, 22026.465794806718]),
    (UnaryOp::Expm1, [0.6487212707001282, 6.38905609893065, -0.2591817793182821, 22025.465794806718]),
    (UnaryOp::Log, [-0.6931471805599453, 0.6931471805599453, f64::NAN, 2.302585092994046]),
    (UnaryOp::Log1p, [0.4054651081081644, 1.0986122886681098, -0.35667494393873234, 2.3978952727983707]),
    (UnaryOp::Log2, [-1.0, 1.0, f64::NAN, 3.321928094887362]),
    (UnaryOp::Log10, [-0.3010299956639812, 0.3010299956639812, f64::NAN, 1.0]),
    (UnaryOp::Sin, [0.479425538604203, 0.9092974268256817, -0.29552020666133955, -0.5440211108893698]),
    (UnaryOp::Cos, [0.8775825618903728, -0.4161468365471424, 0.955336489125606, -0.8390715290764524]),
    (UnaryOp::Tan, [0.5463024898437905, -2.185039863261519, -0.3093362496096232, 0.6483608274590866]),
    (UnaryOp::Arcsin, [0.5235987755982989, f64::NAN, -0.30469265401539747, f64::NAN]),
    (UnaryOp::Arccos, [1.0471975511965976, f64::NAN, 1.8754889808102941, f64::NAN]),
    (UnaryOp::Arctan, [0.4636476090008061, 1.1071487177940904, -0.2914567944778671, 1.4711276743037347]),
    (UnaryOp::Sinh, [0.5210953054937474, 3.6268604078470186, -0.3045202934471426, 11013.232874703393]),
    (UnaryOp::Cosh, [1.1276259652063807, 3.7621956910836314, 1.0453385141288605, 11013.232920103323]),
    (UnaryOp::Tanh, [0.46211715726000974, 0.9640275800758169, -0.2913126124515909, 0.9999999958776927]),
];

/// `np.<op>(MATH_INPUTS.astype(np.float32))`.
#[rustfmt::skip]
const MATH_EXPECTED_F32: &[(UnaryOp, [f32; 4])] = &[
    (UnaryOp::Sqrt, [0.7071067690849304, 1.4142135381698608, f32::NAN, 3.1622776985168457]),
    (UnaryOp::Exp, [1.6487212181091309, 7.3890557289123535, 0.740818202495575, 22026.466796875]),
    (UnaryOp::Expm1, [0.6487212777137756, 6.389056205749512, -0.25918179750442505, 22025.46484375]),
    (UnaryOp::Log, [-0.6931471824645996, 0.6931471824645996, f32::NAN, 2.3025851249694824]),
    (UnaryOp::Log1p, [0.40546512603759766, 1.0986123085021973, -0.3566749691963196, 2.397895336151123]),
    (UnaryOp::Log2, [-1.0, 1.0, f32::NAN, 3.321928024291992]),
    (UnaryOp::Log10, [-0.3010300099849701, 0.3010300099849701, f32::NAN, 1.0]),
    (UnaryOp::Sin, [0.4794255495071411, 0.9092974066734314, -0.29552021622657776, -0.5440210700035095]),
    (UnaryOp::Cos, [0.8775825500488281, -0.41614681482315063, 0.9553365111351013, -0.83907151222229]),
    (UnaryOp::Tan, [0.5463024973869324, -2.18503999710083, -0.30933627486228943, 0.6483607888221741]),
    (UnaryOp::Arcsin, [0.5235987901687622, f32::NAN, -0.30469265580177307, f32::NAN]),
    (UnaryOp::Arccos, [1.0471975803375244, f32::NAN, 1.8754889965057373, f32::NAN]),
    (UnaryOp::Arctan, [0.46364760398864746, 1.1071487665176392, -0.29145681858062744, 1.4711277484893799]),
    (UnaryOp::Sinh, [0.5210952758789062, 3.6268603801727295, -0.30452030897140503, 11013.2333984375]),
    (UnaryOp::Cosh, [1.1276260614395142, 3.762195587158203, 1.0453383922576904, 11013.2333984375]),
    (UnaryOp::Tanh, [0.46211719512939453, 0.9640275835990906, -0.29131263494491577, 1.0]),
];

#[test]
fn float64_math_is_within_two_ulps_of_numpy() {
    for (op, expected) in MATH_EXPECTED_F64 {
        let got = float64_values(&unary(*op, &f64s(&MATH_INPUTS)).unwrap());
        for (g, e) in got.iter().zip(expected) {
            assert!(ulps_f64(*g, *e) <= 2, "{}: {g:e} vs NumPy {e:e}", op.name());
        }
    }
}

#[test]
fn float32_math_stays_float32_and_is_within_two_ulps_of_numpy() {
    let inputs = MATH_INPUTS.map(|v| v as f32);
    for (op, expected) in MATH_EXPECTED_F32 {
        let got = float32_values(&unary(*op, &f32s(&inputs)).unwrap());
        for (g, e) in got.iter().zip(expected) {
            assert!(ulps_f32(*g, *e) <= 2, "{}: {g:e} vs NumPy {e:e}", op.name());
        }
    }
}

#[test]
fn integer_math_is_computed_in_float64() {
    // np.sqrt(np.array([4, 2], dtype=np.int32)) is float64.
    let got = unary(UnaryOp::Sqrt, &i32s(&[4, 2])).unwrap();
    assert_eq!(got, f64s(&[2.0, 1.4142135623730951]));
    let got = unary(UnaryOp::Rint, &i64s(&[3])).unwrap();
    assert_eq!(got, f64s(&[3.0]));
}

#[test]
fn integer_negative_abs_and_square_wrap() {
    assert_eq!(
        unary(UnaryOp::Negative, &i64s(&[i64::MIN, 5])).unwrap(),
        i64s(&[i64::MIN, -5])
    );
    assert_eq!(
        unary(UnaryOp::Absolute, &i32s(&[i32::MIN, -3])).unwrap(),
        i32s(&[i32::MIN, 3])
    );
    // np.square(np.array([65536, 46341], dtype=np.int32)) == [0, -2147479015]
    assert_eq!(
        unary(UnaryOp::Square, &i32s(&[65536, 46341])).unwrap(),
        i32s(&[0, -2147479015])
    );
}

#[test]
fn integer_reciprocal_sign_and_rounding() {
    let x = i64s(&[0, 1, -1, 2, -2, 5]);
    assert_eq!(
        unary(UnaryOp::Reciprocal, &x).unwrap(),
        i64s(&[i64::MIN, 1, -1, 0, 0, 0])
    );
    assert_eq!(
        unary(UnaryOp::Sign, &x).unwrap(),
        i64s(&[0, 1, -1, 1, -1, 1])
    );
    assert_eq!(
        unary(UnaryOp::Floor, &i32s(&[-3, 4])).unwrap(),
        i32s(&[-3, 4])
    );
}

#[test]
fn float_sign_rint_and_friends_through_arrays() {
    let got = float64_values(&unary(UnaryOp::Sign, &f64s(&[f64::NAN, -0.0, -2.0])).unwrap());
    assert!(got[0].is_nan());
    assert_eq!(got[1].to_bits(), 0.0f64.to_bits());
    assert_eq!(got[2], -1.0);
    let got = unary(UnaryOp::Rint, &f32s(&[0.5, 1.5, 2.5, -0.5])).unwrap();
    assert_eq!(got, f32s(&[0.0, 2.0, 2.0, -0.0]));
    let got = unary(UnaryOp::Reciprocal, &f64s(&[0.0, -0.0, 4.0])).unwrap();
    assert_eq!(got, f64s(&[f64::INFINITY, f64::NEG_INFINITY, 0.25]));
    let got = unary(UnaryOp::Trunc, &f64s(&[-2.5, 2.5])).unwrap();
    assert_eq!(got, f64s(&[-2.0, 2.0]));
}

#[test]
fn invert_is_bitwise_on_ints_and_logical_on_bools() {
    assert_eq!(
        unary(UnaryOp::Invert, &i32s(&[0, -1, 5])).unwrap(),
        i32s(&[-1, 0, -6])
    );
    assert_eq!(
        unary(UnaryOp::Invert, &bools(&[true, false])).unwrap(),
        bools(&[false, true])
    );
}

#[test]
fn predicates_read_any_dtype() {
    let x = f64s(&[f64::NAN, f64::INFINITY, 0.0, -1.5]);
    assert_eq!(
        unary(UnaryOp::IsNan, &x).unwrap(),
        bools(&[true, false, false, false])
    );
    assert_eq!(
        unary(UnaryOp::IsInf, &x).unwrap(),
        bools(&[false, true, false, false])
    );
    assert_eq!(
        unary(UnaryOp::IsFinite, &x).unwrap(),
        bools(&[false, false, true, true])
    );
    assert_eq!(
        unary(UnaryOp::LogicalNot, &x).unwrap(),
        bools(&[false, false, true, false])
    );
    assert_eq!(unary(UnaryOp::IsNan, &i32s(&[3])).unwrap(), bools(&[false]));
    assert_eq!(
        unary(UnaryOp::IsFinite, &bools(&[true])).unwrap(),
        bools(&[true])
    );
}

#[test]
fn unary_without_a_numpy_loop_is_an_error() {
    let err = unary(UnaryOp::Negative, &bools(&[true])).unwrap_err();
    assert_eq!(err.to_string(), "negative is not supported for dtype bool");
    assert!(unary(UnaryOp::Invert, &f64s(&[1.0])).is_err());
    assert!(unary(UnaryOp::Invert, &f16_bits(&[0x3c00])).is_err());
    // NumPy's sqrt of bool is float16's loop.
    let roots = unary(UnaryOp::Sqrt, &bools(&[true])).unwrap();
    assert_eq!(bits_of(&roots), [0x3c00]);
}

#[test]
fn unary_keeps_the_shape() {
    let x = ArrayData::Float64(arr2(&[[1.0, 4.0], [9.0, 16.0]]).into_dyn());
    let expected = ArrayData::Float64(arr2(&[[1.0, 2.0], [3.0, 4.0]]).into_dyn());
    assert_eq!(unary(UnaryOp::Sqrt, &x).unwrap(), expected);
    let scalar = ArrayData::Int64(arr0(-4).into_dyn());
    assert_eq!(
        unary(UnaryOp::Absolute, &scalar).unwrap(),
        ArrayData::Int64(arr0(4).into_dyn())
    );
}

#[test]
fn broadcast_shapes_follow_numpy() {
    assert_eq!(broadcast_shape(&[3, 1], &[4]), Some(vec![3, 4]));
    assert_eq!(broadcast_shape(&[], &[2, 3]), Some(vec![2, 3]));
    assert_eq!(broadcast_shape(&[2, 1, 5], &[7, 1]), Some(vec![2, 7, 5]));
    assert_eq!(broadcast_shape(&[0], &[1]), Some(vec![0]));
    assert_eq!(broadcast_shape(&[1, 0], &[3, 1]), Some(vec![3, 0]));
    assert_eq!(broadcast_shape(&[3], &[4]), None);
    assert_eq!(broadcast_shape(&[0], &[2]), None);
}

#[test]
fn binary_broadcasts_columns_against_rows_and_scalars() {
    let column = ArrayData::Int64(arr2(&[[1], [2], [3]]).into_dyn());
    let row = i64s(&[10, 20]);
    let expected = ArrayData::Int64(arr2(&[[11, 21], [12, 22], [13, 23]]).into_dyn());
    assert_eq!(
        binary(BinaryOp::Add, DType::Int64, &column, &row).unwrap(),
        expected
    );
    let two = ArrayData::Int64(arr0(2).into_dyn());
    let expected = ArrayData::Int64(arr2(&[[2], [4], [6]]).into_dyn());
    assert_eq!(
        binary(BinaryOp::Multiply, DType::Int64, &two, &column).unwrap(),
        expected
    );
}

#[test]
fn binary_casts_to_the_loop_dtype() {
    // np.divide(np.array([1, 0, -3]), np.array([0, 0, 2])) == [inf, nan, -1.5] (float64)
    let got = binary(
        BinaryOp::Divide,
        DType::Int64,
        &i64s(&[1, 0, -3]),
        &i64s(&[0, 0, 2]),
    );
    let got = float64_values(&got.unwrap());
    assert_eq!(got[0], f64::INFINITY);
    assert!(got[1].is_nan());
    assert_eq!(got[2], -1.5);
    // int32 + float64 promoted to float64.
    let got = binary(BinaryOp::Add, DType::Float64, &i32s(&[1]), &f64s(&[0.5])).unwrap();
    assert_eq!(got, f64s(&[1.5]));
    // Comparisons run in the common dtype: in int64 these differ (as float32 they would not).
    let got = binary(
        BinaryOp::Equal,
        DType::Int64,
        &i64s(&[16777217]),
        &i64s(&[16777216]),
    );
    assert_eq!(got.unwrap(), bools(&[false]));
}

#[test]
fn integer_arithmetic_wraps_and_divides_like_python() {
    let max = i32s(&[i32::MAX, i32::MIN]);
    let got = binary(BinaryOp::Add, DType::Int32, &max, &i32s(&[1, -1])).unwrap();
    assert_eq!(got, i32s(&[i32::MIN, i32::MAX]));
    let a = i64s(&[-7, 7, 7, i64::MIN]);
    let b = i64s(&[2, -2, 0, -1]);
    let got = binary(BinaryOp::FloorDivide, DType::Int64, &a, &b).unwrap();
    assert_eq!(got, i64s(&[-4, -4, 0, i64::MIN]));
    let got = binary(BinaryOp::Remainder, DType::Int64, &a, &b).unwrap();
    assert_eq!(got, i64s(&[1, -1, 0, 0]));
}

#[test]
fn integer_power_rejects_negative_exponents_unless_nothing_is_computed() {
    let err = binary(
        BinaryOp::Power,
        DType::Int64,
        &i64s(&[2, 3]),
        &i64s(&[1, -1]),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Integers to negative integer powers are not allowed."
    );
    let empty = binary(BinaryOp::Power, DType::Int64, &i64s(&[]), &i64s(&[-1])).unwrap();
    assert_eq!(empty, i64s(&[]));
    let got = binary(
        BinaryOp::Power,
        DType::Int32,
        &i32s(&[2, -3]),
        &i32s(&[31, 3]),
    )
    .unwrap();
    assert_eq!(got, i32s(&[i32::MIN, -27]));
}

#[test]
fn float_division_by_zero_and_power() {
    let got = binary(
        BinaryOp::Divide,
        DType::Float64,
        &f64s(&[1.0, -1.0, 0.0, 1.0]),
        &f64s(&[0.0, 0.0, 0.0, -0.0]),
    );
    let got = float64_values(&got.unwrap());
    assert_eq!(got[..2], [f64::INFINITY, f64::NEG_INFINITY]);
    assert!(got[2].is_nan());
    assert_eq!(got[3], f64::NEG_INFINITY);
    // np.power([2.0, -8.0, 0.0, nan, 1.0, -1.0], [0.5, 1/3, -1.0, 0.0, nan, inf])
    let got = binary(
        BinaryOp::Power,
        DType::Float64,
        &f64s(&[2.0, -8.0, 0.0, f64::NAN, 1.0, -1.0]),
        &f64s(&[0.5, 1.0 / 3.0, -1.0, 0.0, f64::NAN, f64::INFINITY]),
    );
    let got = float64_values(&got.unwrap());
    assert_eq!(got[0], 1.4142135623730951);
    assert!(got[1].is_nan());
    assert_eq!(got[2..], [f64::INFINITY, 1.0, 1.0, 1.0]);
}

#[test]
fn arctan2_and_hypot() {
    // np.arctan2([1.0, -2.0, 0.0], [3.0, -0.5, -1.0])
    let got = binary(
        BinaryOp::Arctan2,
        DType::Float64,
        &f64s(&[1.0, -2.0, 0.0]),
        &f64s(&[3.0, -0.5, -1.0]),
    );
    assert_eq!(
        got.unwrap(),
        f64s(&[
            0.3217505543966422,
            -1.8157749899217608,
            std::f64::consts::PI
        ])
    );
    // np.hypot(np.float32(3e20), np.float32(4e20)) == 5e20 without overflow.
    let got = binary(
        BinaryOp::Hypot,
        DType::Float32,
        &f32s(&[3e20]),
        &f32s(&[4e20]),
    );
    assert_eq!(got.unwrap(), f32s(&[5e20]));
    // Integer operands compute in float64.
    let got = binary(BinaryOp::Hypot, DType::Int32, &i32s(&[3]), &i32s(&[4]));
    assert_eq!(got.unwrap(), f64s(&[5.0]));
}

#[test]
fn comparisons_with_nan_are_false_except_not_equal() {
    let a = f64s(&[f64::NAN, 1.0]);
    let b = f64s(&[f64::NAN, 1.0]);
    let cmp = |op| binary(op, DType::Float64, &a, &b).unwrap();
    assert_eq!(cmp(BinaryOp::Equal), bools(&[false, true]));
    assert_eq!(cmp(BinaryOp::NotEqual), bools(&[true, false]));
    assert_eq!(cmp(BinaryOp::LessEqual), bools(&[false, true]));
    assert_eq!(cmp(BinaryOp::Greater), bools(&[false, false]));
}

#[test]
fn logical_ops_treat_nonzero_and_nan_as_true() {
    let x = f64s(&[f64::NAN, 0.0, -0.0, 2.0]);
    let t = ArrayData::Float64(arr0(1.0).into_dyn());
    let got = binary(BinaryOp::LogicalAnd, DType::Float64, &x, &t).unwrap();
    assert_eq!(got, bools(&[true, false, false, true]));
    let got = binary(
        BinaryOp::LogicalXor,
        DType::Int64,
        &i64s(&[3, 0]),
        &i64s(&[0, 0]),
    )
    .unwrap();
    assert_eq!(got, bools(&[true, false]));
}

#[test]
fn bool_arithmetic_is_logical() {
    let a = bools(&[true, true, false, false]);
    let b = bools(&[true, false, true, false]);
    let run = |op| binary(op, DType::Bool, &a, &b).unwrap();
    assert_eq!(run(BinaryOp::Add), bools(&[true, true, true, false]));
    assert_eq!(run(BinaryOp::Multiply), bools(&[true, false, false, false]));
    assert_eq!(run(BinaryOp::Maximum), bools(&[true, true, true, false]));
    assert_eq!(run(BinaryOp::Fmin), bools(&[true, false, false, false]));
    assert_eq!(
        run(BinaryOp::BitwiseXor),
        bools(&[false, true, true, false])
    );
    let err = binary(BinaryOp::Subtract, DType::Bool, &a, &b).unwrap_err();
    assert_eq!(err.to_string(), "subtract is not supported for dtype bool");
}

#[test]
fn bitwise_ops_on_ints() {
    let a = i64s(&[12, -1]);
    let b = i64s(&[10, 5]);
    assert_eq!(
        binary(BinaryOp::BitwiseAnd, DType::Int64, &a, &b).unwrap(),
        i64s(&[8, 5])
    );
    assert_eq!(
        binary(BinaryOp::BitwiseOr, DType::Int64, &a, &b).unwrap(),
        i64s(&[14, -1])
    );
    assert_eq!(
        binary(BinaryOp::BitwiseXor, DType::Int64, &a, &b).unwrap(),
        i64s(&[6, -6])
    );
    assert!(binary(
        BinaryOp::BitwiseAnd,
        DType::Float64,
        &f64s(&[1.0]),
        &f64s(&[1.0])
    )
    .is_err());
}

#[test]
fn incompatible_shapes_are_an_error_not_a_panic() {
    let err = binary(
        BinaryOp::Add,
        DType::Int64,
        &i64s(&[1, 2, 3]),
        &i64s(&[1, 2]),
    )
    .unwrap_err();
    assert!(err.to_string().contains("do not broadcast"), "{err}");
}

#[test]
fn where_broadcasts_all_three_operands() {
    let cond = ArrayData::Bool(arr2(&[[true], [false]]).into_dyn());
    let x = i64s(&[1, 2, 3]);
    let y = ArrayData::Int64(arr0(-1).into_dyn());
    let expected = ArrayData::Int64(arr2(&[[1, 2, 3], [-1, -1, -1]]).into_dyn());
    assert_eq!(where_(&cond, &x, &y).unwrap(), expected);
}

#[test]
fn where_reads_a_numeric_condition_as_truthiness() {
    let cond = f64s(&[f64::NAN, 0.0]);
    let got = where_(&cond, &f32s(&[1.0, 2.0]), &f32s(&[-1.0, -2.0])).unwrap();
    assert_eq!(got, f32s(&[1.0, -2.0]));
}

#[test]
fn where_rejects_mismatched_branches() {
    let cond = bools(&[true]);
    assert!(where_(&cond, &f32s(&[1.0]), &f64s(&[1.0])).is_err());
    assert!(where_(&bools(&[true, false]), &f64s(&[1.0; 3]), &f64s(&[1.0])).is_err());
}

#[test]
fn fortran_ordered_inputs_give_c_ordered_results() {
    let fortran = arr2(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        .reversed_axes()
        .into_dyn();
    assert!(!fortran.is_standard_layout());
    let x = ArrayData::Float64(fortran.clone());
    let is_c = |x: &ArrayData| crate::with_array!(x, a => a.is_standard_layout());
    let negated = unary(UnaryOp::Negative, &x).unwrap();
    assert!(is_c(&negated));
    assert_eq!(negated, ArrayData::Float64(fortran.mapv(|v| -v)));
    let as_int = crate::kernels::cast(&x, DType::Int64);
    assert!(is_c(&as_int));
    assert_eq!(as_int, ArrayData::Int64(fortran.mapv(|v| v as i64)));
    let cond = ArrayData::Bool(fortran.mapv(|v| v > 2.5));
    let picked = where_(&cond, &x, &ArrayData::Float64(arr0(0.0).into_dyn())).unwrap();
    assert!(is_c(&picked));
    assert_eq!(
        picked,
        ArrayData::Float64(fortran.mapv(|v| if v > 2.5 { v } else { 0.0 }))
    );
}

/// A float16 array from bit patterns.
fn f16_bits(bits: &[u16]) -> ArrayData {
    ArrayData::Float16(arr1(bits).mapv(half::f16::from_bits).into_dyn())
}

fn bits_of(x: &ArrayData) -> Vec<u16> {
    match x {
        ArrayData::Float16(a) => a.iter().map(|v| v.to_bits()).collect(),
        other => panic!("a {} result, not float16", other.dtype()),
    }
}

/// float16 loops compute in float32 and round once, bit for bit as NumPy 2.4:
/// `(np.float16(a) <op> np.float16(b)).view(np.uint16)`.
#[test]
fn float16_binary_ops_round_their_float32_results_as_numpy() {
    // 0.1, 65504, 6e-8 (the smallest subnormal), 1e-5, 1, 7, 300, 2
    let cases = [
        (BinaryOp::Multiply, 0x2e66, 0x4200, 0x34cc), // 0.1 * 3 = 0.2998
        (BinaryOp::Add, 0x7bff, 0x5000, 0x7c00),      // 65504 + 32 = inf
        (BinaryOp::Add, 0x7bff, 0x4c00, 0x7c00),      // 65504 + 16 = inf (a tie, to even)
        (BinaryOp::Add, 0x7bff, 0x4800, 0x7bff),      // 65504 + 8 = 65504
        (BinaryOp::Divide, 0x0001, 0x4000, 0x0000),   // 6e-8 / 2 = 0 (a tie, to even)
        (BinaryOp::Multiply, 0x0001, 0x4200, 0x0003), // 6e-8 * 3
        (BinaryOp::Multiply, 0x00a8, 0x1419, 0x0000), // 1e-5 * 1e-3 underflows
        (BinaryOp::Divide, 0x3c00, 0x4200, 0x3555),   // 1 / 3
        (BinaryOp::Power, 0x4000, 0x3800, 0x3da8),    // 2 ** 0.5
        (BinaryOp::FloorDivide, 0x4700, 0x34cd, 0x4dc0), // 7 // 0.3
        (BinaryOp::Remainder, 0x4700, 0x34cd, 0x2e54), // 7 % 0.3
        (BinaryOp::Arctan2, 0x3c00, 0x4200, 0x3526),  // arctan2(1, 3)
        (BinaryOp::Hypot, 0x5cb0, 0x5e40, 0x5fd0),    // hypot(300, 400)
    ];
    for (op, a, b, expected) in cases {
        let got = binary(op, DType::Float16, &f16_bits(&[a]), &f16_bits(&[b])).unwrap();
        assert_eq!(
            bits_of(&got),
            [expected],
            "{} of {a:#06x}, {b:#06x}",
            op.name()
        );
    }
}

#[test]
fn float16_unary_ops_round_their_float32_results_as_numpy() {
    let cases = [
        (UnaryOp::Sqrt, 0x4000, 0x3da8), // sqrt(2)
        (UnaryOp::Exp, 0x4980, 0x7b4f),  // exp(11) = 59870
        (UnaryOp::Exp, 0x4a00, 0x7c00),  // exp(12) overflows to inf
        (UnaryOp::Log, 0x2e66, 0xc09b),  // log(0.1)
        (UnaryOp::Sin, 0x4200, 0x3084),  // sin(3)
        (UnaryOp::Negative, 0x0001, 0x8001),
    ];
    for (op, x, expected) in cases {
        let got = unary(op, &f16_bits(&[x])).unwrap();
        assert_eq!(bits_of(&got), [expected], "{} of {x:#06x}", op.name());
    }
    // Math on bool and 8-bit integers gives float16, as NumPy's.
    let small = ArrayData::UInt8(arr1(&[0u8, 2, 255]).into_dyn());
    let roots = unary(UnaryOp::Sqrt, &small).unwrap();
    assert_eq!(roots.dtype(), DType::Float16);
    // np.sqrt(np.array([0, 2, 255], np.uint8)).view(np.uint16)
    assert_eq!(bits_of(&roots), [0x0000, 0x3da8, 0x4bfc]);
}
