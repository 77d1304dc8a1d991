//! Element type conversions with NumPy's `astype` semantics as x86-64 builds of NumPy
//! produce them. Float to integer is written out explicitly: NumPy truncates toward
//! zero and turns NaN, ±inf and out-of-range values into the integer type's minimum
//! (what the x86 `cvttsd2si` instruction gives), whereas Rust's `as` saturates.

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::element::into_c_order;
use crate::with_array;
use half::f16;
use ndarray::ArrayD;
use std::borrow::Cow;

use crate::convert::CastFrom;

fn convert<S: Copy, T: CastFrom<S>>(array: &ArrayD<S>) -> ArrayD<T> {
    array.mapv(T::cast_from)
}

/// `x.astype(to)`: every element converted with NumPy's semantics.
pub fn cast(x: &ArrayData, to: DType) -> ArrayData {
    into_c_order(with_array!(x, a => match to {
        DType::Bool => ArrayData::Bool(convert(a)),
        DType::Int8 => ArrayData::Int8(convert(a)),
        DType::Int16 => ArrayData::Int16(convert(a)),
        DType::Int32 => ArrayData::Int32(convert(a)),
        DType::Int64 => ArrayData::Int64(convert(a)),
        DType::UInt8 => ArrayData::UInt8(convert(a)),
        DType::UInt16 => ArrayData::UInt16(convert(a)),
        DType::UInt32 => ArrayData::UInt32(convert(a)),
        DType::UInt64 => ArrayData::UInt64(convert(a)),
        DType::Float16 => ArrayData::Float16(convert(a)),
        DType::Float32 => ArrayData::Float32(convert(a)),
        DType::Float64 => ArrayData::Float64(convert(a)),
        DType::Complex64 => ArrayData::Complex64(convert(a)),
        DType::Complex128 => ArrayData::Complex128(convert(a)),
    }))
}

/// An integer array's values as int64 in C order, uint64 values beyond int64
/// saturated (as indices they are out of bounds either way); other dtypes give no
/// values.
pub fn int_values_saturating(x: &ArrayData) -> Vec<i64> {
    match x {
        ArrayData::UInt64(a) => a
            .iter()
            .map(|&v| i64::try_from(v).unwrap_or(i64::MAX))
            .collect(),
        other if other.dtype().is_int() => match cast(other, DType::Int64) {
            ArrayData::Int64(a) => a.iter().copied().collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A float16 array's values as float32 (exactly): NumPy computes every float16
/// ufunc loop in float32 and rounds the result back ([`narrow_to_f16`]).
pub(crate) fn widen_f16(x: &ArrayD<f16>) -> ArrayD<f32> {
    x.mapv(f16::to_f32)
}

/// A float32 result rounded to float16 (to nearest even); other dtypes (a
/// comparison's bools) as they are.
pub(crate) fn narrow_to_f16(x: ArrayData) -> ArrayData {
    match x {
        ArrayData::Float32(a) => ArrayData::Float16(a.mapv(f16::from_f32)),
        other => other,
    }
}

/// `x` in dtype `to`, borrowed when it already has that dtype.
pub(crate) fn cast_to(x: &ArrayData, to: DType) -> Cow<'_, ArrayData> {
    if x.dtype() == to {
        Cow::Borrowed(x)
    } else {
        Cow::Owned(cast(x, to))
    }
}

#[cfg(test)]
mod tests {
    //! Expected values computed by NumPy 2.4 on x86-64 with `astype`.

    use super::*;
    use crate::convert::f64_to_f16;
    use crate::scalar::{cast_scalar, Scalar};
    use ndarray::arr1;

    fn f64_array(values: &[f64]) -> ArrayData {
        ArrayData::Float64(arr1(values).into_dyn())
    }

    #[test]
    fn float64_to_int32_truncates_and_maps_the_rest_to_min() {
        let x = f64_array(&[
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3e9,
            -3e9,
            1e19,
            -1e19,
            2147483647.9,
            -2147483648.9,
            -0.9,
        ]);
        let min = i32::MIN;
        let expected = [min, min, min, min, min, min, min, 2147483647, min, 0];
        assert_eq!(
            cast(&x, DType::Int32),
            ArrayData::Int32(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn float64_to_int64_maps_nan_inf_and_out_of_range_to_min() {
        let x = f64_array(&[
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3e9,
            1e19,
            -1e19,
            9.223_372_036_854_776e18,
            -9.223_372_036_854_776e18,
            -0.0,
        ]);
        let min = i64::MIN;
        let expected = [min, min, min, 3_000_000_000, min, min, min, min, 0];
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn float32_to_ints() {
        let x = ArrayData::Float32(arr1(&[f32::NAN, 3e9, -3e9, 2147483520.0]).into_dyn());
        let expected = [i32::MIN, i32::MIN, i32::MIN, 2147483520];
        assert_eq!(
            cast(&x, DType::Int32),
            ArrayData::Int32(arr1(&expected).into_dyn())
        );
        let x = ArrayData::Float32(arr1(&[f32::NAN, 1e19, -1e19, f32::INFINITY]).into_dyn());
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&[i64::MIN; 4]).into_dyn())
        );
    }

    #[test]
    fn anything_to_bool_is_nonzero_and_nan_is_true() {
        let x = f64_array(&[f64::NAN, 0.0, -0.0, 1e-300]);
        assert_eq!(
            cast(&x, DType::Bool),
            ArrayData::Bool(arr1(&[true, false, false, true]).into_dyn())
        );
        let x = ArrayData::Int32(arr1(&[0, -5]).into_dyn());
        assert_eq!(
            cast(&x, DType::Bool),
            ArrayData::Bool(arr1(&[false, true]).into_dyn())
        );
    }

    #[test]
    fn bool_to_numbers_is_zero_or_one() {
        let x = ArrayData::Bool(arr1(&[true, false]).into_dyn());
        assert_eq!(
            cast(&x, DType::Float32),
            ArrayData::Float32(arr1(&[1.0, 0.0]).into_dyn())
        );
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&[1, 0]).into_dyn())
        );
    }

    #[test]
    fn int64_to_int32_wraps() {
        let x = ArrayData::Int64(arr1(&[(1i64 << 40) + 5, -(1i64 << 31) - 1]).into_dyn());
        assert_eq!(
            cast(&x, DType::Int32),
            ArrayData::Int32(arr1(&[5, 2147483647]).into_dyn())
        );
    }

    #[test]
    fn int64_to_float32_rounds_once() {
        // Through f64 this would round twice and give 2^60.
        let x = ArrayData::Int64(arr1(&[(1i64 << 60) + (1 << 36) + 1, (1 << 24) + 1]).into_dyn());
        let expected = [((1i64 << 60) + (1 << 37)) as f32, 16777216.0];
        assert_eq!(
            cast(&x, DType::Float32),
            ArrayData::Float32(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn float64_to_float32_overflows_to_infinity() {
        let x = f64_array(&[3.7, -3.7, 1e39, -1e39]);
        let expected = [3.7f32, -3.7, f32::INFINITY, f32::NEG_INFINITY];
        assert_eq!(
            cast(&x, DType::Float32),
            ArrayData::Float32(arr1(&expected).into_dyn())
        );
    }

    #[test]
    fn cast_scalar_agrees_with_cast() {
        assert_eq!(
            cast_scalar(Scalar::Float64(f64::NAN), DType::Int32),
            Scalar::Int32(i32::MIN)
        );
        assert_eq!(
            cast_scalar(Scalar::Int64(-1), DType::Bool),
            Scalar::Bool(true)
        );
        assert_eq!(
            cast_scalar(Scalar::Float32(-2.9), DType::Int64),
            Scalar::Int64(-2)
        );
    }

    #[test]
    fn floats_to_small_and_unsigned_ints_as_numpy_on_x86_64() {
        // `np.array(v).astype(t)` for the in-range values and the wrapped negatives,
        // where NumPy's results do not depend on the machine's vector unit.
        let x = f64_array(&[300.7, -1.5, 65535.9, -129.0, 127.9, -0.5, 4294967295.5]);
        let cases = [
            (DType::Int8, vec![44i128, -1, -1, 127, 127, 0, 0]),
            (DType::Int16, vec![300, -1, -1, -129, 127, 0, 0]),
            (DType::UInt8, vec![44, 255, 255, 127, 127, 0, 0]),
            (DType::UInt16, vec![300, 65535, 65535, 65407, 127, 0, 0]),
            (
                DType::UInt32,
                vec![300, 4294967295, 65535, 4294967167, 127, 0, 4294967295],
            ),
            (
                DType::UInt64,
                vec![
                    300,
                    18446744073709551615,
                    65535,
                    18446744073709551487,
                    127,
                    0,
                    4294967295,
                ],
            ),
        ];
        for (dtype, expected) in cases {
            let got = cast(&x, dtype);
            let values: Vec<i128> = (0..expected.len())
                .map(|i| got.get_flat(i).unwrap().as_i128().unwrap())
                .collect();
            assert_eq!(values, expected, "{dtype}");
        }
    }

    #[test]
    fn float64_to_float16_rounds_once() {
        // `np.array([x]).astype(np.float16).view(np.uint16)`.
        let cases = [
            (1.0 + 2f64.powi(-11) + 2f64.powi(-30), 0x3c01), // above a tie: up
            (1.0 + 2f64.powi(-11), 0x3c00),                  // a tie: to even
            (65519.99, 0x7bff),
            (65520.0, 0x7c00),
            (2f64.powi(-25), 0x0000), // half the smallest subnormal
            (2f64.powi(-25) + 2f64.powi(-60), 0x0001), // just above it
            (-(2f64.powi(-25) + 2f64.powi(-60)), 0x8001),
            (3.0 * 2f64.powi(-26), 0x0001),
            (0.1, 0x2e66),
            (1e300, 0x7c00),
            (-1e-300, 0x8000),
            (2049.0000001, 0x6801),
        ];
        for (value, bits) in cases {
            assert_eq!(f64_to_f16(value).to_bits(), bits, "{value:e}");
        }
        let x = f64_array(&[1.0 + 2f64.powi(-11) + 2f64.powi(-30), f64::NAN]);
        let ArrayData::Float16(halves) = cast(&x, DType::Float16) else {
            panic!("cast to float16 gives float16");
        };
        assert_eq!(halves[[0]].to_bits(), 0x3c01);
        assert!(halves[[1]].is_nan());
    }

    #[test]
    fn float16_to_integers_through_its_float32_value() {
        // np.array([nan, 300.5, -1.5, 7e4, -7]).astype(np.float16).astype(t)
        let x = cast(
            &f64_array(&[f64::NAN, 300.5, -1.5, 7e4, -7.0]),
            DType::Float16,
        );
        let ints = |dtype| {
            let got = cast(&x, dtype);
            (0..5)
                .map(|i| got.get_flat(i).unwrap().as_i128().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(ints(DType::Int8), [0, 44, -1, 0, -7]);
        assert_eq!(ints(DType::UInt8), [0, 44, 255, 0, 249]);
        assert_eq!(
            ints(DType::Int64),
            [i64::MIN.into(), 300, -1, i64::MIN.into(), -7]
        );
    }

    #[test]
    fn integers_wrap_between_widths_and_signs() {
        let x = ArrayData::Int64(arr1(&[-1i64, 256, 65537, 1 << 40]).into_dyn());
        assert_eq!(
            cast(&x, DType::UInt8),
            ArrayData::UInt8(arr1(&[255u8, 0, 1, 0]).into_dyn())
        );
        assert_eq!(
            cast(&x, DType::UInt64),
            ArrayData::UInt64(arr1(&[u64::MAX, 256, 65537, 1 << 40]).into_dyn())
        );
        let x = ArrayData::UInt64(arr1(&[u64::MAX, (1 << 63) + 5]).into_dyn());
        assert_eq!(
            cast(&x, DType::Int64),
            ArrayData::Int64(arr1(&[-1i64, i64::MIN + 5]).into_dyn())
        );
        assert_eq!(
            cast(&x, DType::Float64),
            ArrayData::Float64(arr1(&[1.8446744073709552e19, 9.223372036854776e18]).into_dyn())
        );
    }
}
