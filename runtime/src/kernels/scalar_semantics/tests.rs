//! Checks of the scalar semantics against values computed by NumPy 2.4 on x86-64.

use super::divmod_vectors::{F32_FLOOR_DIVIDE_REMAINDER, F64_FLOOR_DIVIDE_REMAINDER};
use super::*;

/// Equal bits, or both NaN (NumPy does not promise a NaN's sign or payload).
fn same_f64(actual: f64, expected: f64) -> bool {
    actual.to_bits() == expected.to_bits() || (actual.is_nan() && expected.is_nan())
}

fn same_f32(actual: f32, expected: f32) -> bool {
    actual.to_bits() == expected.to_bits() || (actual.is_nan() && expected.is_nan())
}

#[test]
fn float64_floor_divide_and_remainder_match_numpy_bit_for_bit() {
    for &[a, b, quotient, remainder] in F64_FLOOR_DIVIDE_REMAINDER {
        let (a, b) = (f64::from_bits(a), f64::from_bits(b));
        let q = float_floor_divide(a, b);
        let r = float_remainder(a, b);
        assert!(
            same_f64(q, f64::from_bits(quotient)),
            "{a:e} // {b:e} = {q:e}"
        );
        assert!(
            same_f64(r, f64::from_bits(remainder)),
            "{a:e} % {b:e} = {r:e}"
        );
    }
}

#[test]
fn float32_floor_divide_and_remainder_match_numpy_bit_for_bit() {
    for &[a, b, quotient, remainder] in F32_FLOOR_DIVIDE_REMAINDER {
        let (a, b) = (f32::from_bits(a), f32::from_bits(b));
        let q = float_floor_divide(a, b);
        let r = float_remainder(a, b);
        assert!(
            same_f32(q, f32::from_bits(quotient)),
            "{a:e} // {b:e} = {q:e}"
        );
        assert!(
            same_f32(r, f32::from_bits(remainder)),
            "{a:e} % {b:e} = {r:e}"
        );
    }
}

#[test]
fn float_floor_divide_named_corners() {
    // np.float64(-7.5) // 2 == -4.0, % 2 == 0.5; 1.0 // 0.0 == inf; x % 0.0 is nan.
    assert_eq!(float_floor_divide(-7.5, 2.0), -4.0);
    assert_eq!(float_remainder(-7.5, 2.0), 0.5);
    assert_eq!(float_floor_divide(1.0, 0.0), f64::INFINITY);
    assert_eq!(float_floor_divide(-1.0, 0.0), f64::NEG_INFINITY);
    assert!(float_remainder(1.0, 0.0).is_nan());
    assert!(float_floor_divide(0.0, 0.0).is_nan());
    // np.remainder(-3.0, -3.0) is -0.0: a zero remainder takes the divisor's sign.
    assert_eq!(float_remainder(-3.0f64, 3.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(float_remainder(3.0f64, -3.0).to_bits(), (-0.0f64).to_bits());
}

const INT64_DIVIDENDS: [i64; 16] = [
    -7,
    7,
    -7,
    7,
    0,
    5,
    -5,
    i64::MIN,
    i64::MIN,
    3,
    -3,
    6,
    -6,
    i64::MAX,
    i64::MIN,
    1,
];
const INT64_DIVISORS: [i64; 16] = [
    2,
    -2,
    -2,
    2,
    0,
    0,
    0,
    -1,
    1,
    5,
    5,
    -3,
    3,
    -1,
    i64::MAX,
    i64::MAX,
];

#[test]
fn int64_floor_divide_matches_numpy() {
    let expected: [i64; 16] = [
        -4,
        -4,
        3,
        3,
        0,
        0,
        0,
        i64::MIN,
        i64::MIN,
        0,
        -1,
        -2,
        -2,
        -i64::MAX,
        -2,
        0,
    ];
    for ((a, b), want) in INT64_DIVIDENDS
        .into_iter()
        .zip(INT64_DIVISORS)
        .zip(expected)
    {
        assert_eq!(int_floor_divide(a, b), want, "{a} // {b}");
    }
}

#[test]
fn int64_remainder_matches_numpy() {
    let expected: [i64; 16] = [1, -1, -1, 1, 0, 0, 0, 0, 0, 3, 2, 0, 0, 0, i64::MAX - 1, 1];
    for ((a, b), want) in INT64_DIVIDENDS
        .into_iter()
        .zip(INT64_DIVISORS)
        .zip(expected)
    {
        assert_eq!(int_remainder(a, b), want, "{a} % {b}");
    }
}

#[test]
fn int32_division_overflow_and_zero_match_numpy() {
    assert_eq!(int_floor_divide(i32::MIN, -1), i32::MIN);
    assert_eq!(int_remainder(i32::MIN, -1), 0);
    assert_eq!(int_floor_divide(7i32, 0), 0);
    assert_eq!(int_remainder(7i32, 0), 0);
    assert_eq!(int_floor_divide(-7i32, 2), -4);
    assert_eq!(int_remainder(7i32, -2), -1);
}

#[test]
fn int_power_wraps_like_numpy() {
    let bases: [i64; 13] = [2, 3, -3, 0, 0, 1, -1, 2, 7, i64::MIN, 3, -1, 5];
    let exponents: [i64; 13] = [10, 40, 3, 0, 5, 0, 63, 64, 100, 2, 0, 64, 27];
    let expected: [i64; 13] = [
        1024,
        -6289078614652622815,
        -27,
        1,
        0,
        1,
        -1,
        0,
        3728452490685454945,
        0,
        1,
        1,
        7450580596923828125,
    ];
    for ((b, e), want) in bases.into_iter().zip(exponents).zip(expected) {
        assert_eq!(int_power(b, e), want, "{b} ** {e}");
    }
    let bases: [i32; 5] = [2, 3, -3, i32::MIN, 7];
    let exponents: [i32; 5] = [31, 25, 3, 1, 12];
    let expected: [i32; 5] = [i32::MIN, 1180052131, -27, i32::MIN, 956385313];
    for ((b, e), want) in bases.into_iter().zip(exponents).zip(expected) {
        assert_eq!(int_power(b, e), want, "{b} ** {e}");
    }
}

#[test]
fn int_reciprocal_matches_numpy() {
    // np.reciprocal(np.array([0, 1, -1, 2, -2, 5])) on int64 and int32.
    let inputs: [i64; 6] = [0, 1, -1, 2, -2, 5];
    let expected: [i64; 6] = [i64::MIN, 1, -1, 0, 0, 0];
    for (x, want) in inputs.into_iter().zip(expected) {
        assert_eq!(int_reciprocal(x), want, "1 / {x}");
    }
    assert_eq!(int_reciprocal(0i32), i32::MIN);
    assert_eq!(int_reciprocal(-1i32), -1);
}

#[test]
fn sign_of_zero_and_nan() {
    // np.sign([nan, -0.0, 0.0, -2.0, 3.0, -inf]) == [nan, 0., 0., -1., 1., -1.]
    assert!(float_sign(f64::NAN).is_nan());
    assert_eq!(float_sign(-0.0f64).to_bits(), 0.0f64.to_bits());
    assert_eq!(float_sign(0.0f64).to_bits(), 0.0f64.to_bits());
    assert_eq!(float_sign(-2.0f64), -1.0);
    assert_eq!(float_sign(3.0f32), 1.0);
    assert_eq!(float_sign(f64::NEG_INFINITY), -1.0);
}

#[test]
fn rint_rounds_half_to_even() {
    // np.rint([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999999999999996]) == [0, 2, 2, -0, -2, 2]
    let inputs = [0.5, 1.5, 2.5, -0.5, -1.5, 2.4999999999999996f64];
    let expected = [0.0, 2.0, 2.0, -0.0, -2.0, 2.0f64];
    for (x, want) in inputs.into_iter().zip(expected) {
        assert_eq!(x.rint().to_bits(), want.to_bits(), "rint({x})");
    }
}

#[test]
fn maxima_and_minima_handle_nan_and_signed_zero_like_numpy() {
    let bits = |x: f64| x.to_bits();
    // np.maximum(-0.0, 0.0) == 0.0 and np.maximum(0.0, -0.0) == -0.0 (the second).
    assert_eq!(bits(float_maximum(-0.0, 0.0)), bits(0.0));
    assert_eq!(bits(float_maximum(0.0, -0.0)), bits(-0.0));
    assert_eq!(bits(float_minimum(-0.0, 0.0)), bits(0.0));
    assert_eq!(bits(float_minimum(0.0, -0.0)), bits(-0.0));
    assert_eq!(bits(float_fmax(-0.0, 0.0)), bits(0.0));
    assert_eq!(bits(float_fmin(0.0, -0.0)), bits(-0.0));
    assert!(float_maximum(f64::NAN, 1.0).is_nan());
    assert!(float_maximum(1.0, f64::NAN).is_nan());
    assert!(float_minimum(1.0f32, f32::NAN).is_nan());
    assert_eq!(float_fmax(f64::NAN, 1.0), 1.0);
    assert_eq!(float_fmax(1.0, f64::NAN), 1.0);
    assert_eq!(float_fmin(f32::NAN, -1.0), -1.0);
    assert!(float_fmin(f64::NAN, f64::NAN).is_nan());
}
