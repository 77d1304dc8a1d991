//! Scans against NumPy 2.4 values, and chunked scans (total → carry → chunk) against
//! the single-chunk scan for random splittings.

use super::{scan_carry, scan_chunk, scan_total};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::reduce::Element;
use crate::ops::ScanOp;
use ndarray::{ArrayD, Axis, IxDyn, Slice};
use proptest::prelude::*;

fn array<T: Element>(shape: &[usize], values: Vec<T>) -> ArrayData {
    T::into_data(ArrayD::from_shape_vec(IxDyn(shape), values).expect("test data fits its shape"))
}

/// `((np.arange(12) * 5) % 7 - 3).reshape(3, 4)`.
fn codes() -> Vec<i64> {
    (0..12).map(|i| (i * 5) % 7 - 3).collect()
}

#[test]
fn whole_scans_match_numpy() {
    let x = array(&[3, 4], codes());
    let cumsum0 = [-3, 2, 0, -2, 0, 3, -1, -5, 2, 3, -3, -2_i64];
    assert_eq!(
        scan_chunk(ScanOp::CumSum, &x, 0, None),
        Ok(array(&[3, 4], cumsum0.to_vec()))
    );
    let int32 = array(&[3, 4], codes().iter().map(|&v| v as i32).collect());
    let cumprod1 = [-3, -6, 0, 0, 3, 3, -3, 9, 2, 0, 0, 0_i64];
    assert_eq!(
        scan_chunk(ScanOp::CumProd, &int32, 1, None),
        Ok(array(&[3, 4], cumprod1.to_vec()))
    );
    let positive = array(&[3, 4], codes().iter().map(|&v| v > 0).collect());
    let counts = [0, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 2_i64];
    assert_eq!(
        scan_chunk(ScanOp::CumSum, &positive, 1, None),
        Ok(array(&[3, 4], counts.to_vec()))
    );
    let quarters = array(&[3, 4], codes().iter().map(|&v| v as f32 / 4.0).collect());
    let cumsum32 = [
        -0.75, -0.25, -0.25, -0.75, 0.75, 1.0, 0.75, 0.0, 0.5, 0.5, 0.0, 0.75_f32,
    ];
    assert_eq!(
        scan_chunk(ScanOp::CumSum, &quarters, 1, None),
        Ok(array(&[3, 4], cumsum32.to_vec()))
    );
    // np.cumsum(np.array([-0.0])) keeps the sign of the first element.
    let ArrayData::Float64(negative_zero) =
        scan_chunk(ScanOp::CumSum, &array(&[1], vec![-0.0]), 0, None).unwrap()
    else {
        panic!("cumsum of float64 is float64");
    };
    assert!(negative_zero.iter().all(|v| v.is_sign_negative()));
}

#[test]
fn totals_of_empty_chunks_are_identities() {
    let empty = array::<i32>(&[2, 0], vec![]);
    assert_eq!(
        scan_total(ScanOp::CumSum, &empty, 1),
        Ok(array(&[2, 1], vec![0_i64, 0]))
    );
    assert_eq!(
        scan_total(ScanOp::CumProd, &empty, 1),
        Ok(array(&[2, 1], vec![1_i64, 1]))
    );
}

#[test]
fn mismatched_carries_and_axes_are_errors() {
    let x = array(&[3, 4], codes());
    let wrong_shape = array(&[3, 1], vec![0_i64; 3]);
    assert!(scan_chunk(ScanOp::CumSum, &x, 0, Some(&wrong_shape)).is_err());
    let wrong_dtype = array(&[1, 4], vec![0.0_f64; 4]);
    assert!(scan_chunk(ScanOp::CumSum, &x, 0, Some(&wrong_dtype)).is_err());
    assert!(scan_chunk(ScanOp::CumSum, &x, 2, None).is_err());
    assert!(scan_total(ScanOp::CumSum, &x, 2).is_err());
    assert!(scan_carry(ScanOp::CumSum, Some(&wrong_shape), &wrong_dtype).is_err());
}

/// Splits `x` along `axis` at `cuts`, scans chunk by chunk through carries, and stitches
/// the pieces back together.
fn chunked_scan(op: ScanOp, x: &ArrayData, axis: usize, cuts: &[bool]) -> ArrayData {
    let extent = x.shape()[axis];
    let mut bounds = vec![0];
    bounds.extend((1..extent).filter(|&i| cuts[i - 1]));
    bounds.push(extent);
    let chunks: Vec<ArrayData> = bounds
        .windows(2)
        .map(|w| {
            crate::with_array!(x, a => Element::into_data(
                a.slice_axis(Axis(axis), Slice::from(w[0]..w[1])).as_standard_layout().into_owned()
            ))
        })
        .collect();
    let mut carry: Option<ArrayData> = None;
    let mut pieces = Vec::new();
    for chunk in &chunks {
        pieces.push(scan_chunk(op, chunk, axis, carry.as_ref()).expect("scan"));
        let total = scan_total(op, chunk, axis).expect("total");
        carry = Some(scan_carry(op, carry.as_ref(), &total).expect("carry"));
    }
    let refs: Vec<&ArrayData> = pieces.iter().collect();
    crate::kernels::shape::concatenate(&refs, axis).expect("concatenate")
}

fn test_array(dtype: DType, shape: &[usize], codes: &[i64]) -> ArrayData {
    match dtype {
        DType::Bool => array(shape, codes.iter().map(|&c| c > 0).collect()),
        DType::Int32 => array(shape, codes.iter().map(|&c| c as i32 * 1_000_003).collect()),
        DType::Int64 => array(shape, codes.iter().map(|&c| c * 3_000_000_019).collect()),
        // Rounded to float16 after every step; a chunk's carry adds whole chunk totals.
        DType::Float16 => array(
            shape,
            codes
                .iter()
                .map(|&c| half::f16::from_f64(c as f64 / 3.0))
                .collect(),
        ),
        // Exact in binary, so cancellation cannot magnify rounding differences.
        DType::Float32 => array(shape, codes.iter().map(|&c| c as f32 / 8.0).collect()),
        // Inexact but positive, so reassociation changes results only by relative rounding.
        DType::Float64 => array(
            shape,
            codes.iter().map(|&c| (c.abs() + 1) as f64 / 10.0).collect(),
        ),
        narrow => crate::kernels::cast(
            &array::<i64>(shape, codes.iter().map(|&c| c * 3_000_000_019).collect()),
            narrow,
        ),
    }
}

fn scan_case() -> impl Strategy<Value = (ScanOp, ArrayData, usize, Vec<bool>)> {
    (
        prop::collection::vec(1usize..=6, 1..=3),
        // Complex scans are checked end to end (`tests/run_props.rs`).
        prop::sample::select(
            DType::ALL
                .into_iter()
                .filter(|d| !d.is_complex())
                .collect::<Vec<_>>(),
        ),
        prop::sample::select(vec![ScanOp::CumSum, ScanOp::CumProd]),
    )
        .prop_flat_map(|(shape, dtype, op)| {
            let n: usize = shape.iter().product();
            (
                prop::collection::vec(-4i64..5, n),
                0..shape.len(),
                prop::collection::vec(any::<bool>(), 6),
            )
                .prop_map(move |(codes, axis, cuts)| {
                    (op, test_array(dtype, &shape, &codes), axis, cuts)
                })
        })
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    a.to_bits() == b.to_bits() || (a - b).abs() <= tolerance * a.abs().max(b.abs())
}

proptest! {
    #[test]
    fn chunked_scan_equals_whole_scan((op, x, axis, cuts) in scan_case()) {
        let whole = scan_chunk(op, &x, axis, None).expect("scan");
        let chunked = chunked_scan(op, &x, axis, &cuts);
        prop_assert_eq!(whole.shape(), chunked.shape());
        match (&whole, &chunked) {
            (ArrayData::Float64(w), ArrayData::Float64(c)) => {
                for (&a, &b) in w.iter().zip(c) {
                    prop_assert!(close(a, b, 1e-12), "{} vs {}", a, b);
                }
            }
            (ArrayData::Float32(w), ArrayData::Float32(c)) => {
                for (&a, &b) in w.iter().zip(c) {
                    prop_assert!(close(a as f64, b as f64, 1e-5), "{} vs {}", a, b);
                }
            }
            // Each step rounds to float16 (2^-11 relative), and a carry sums chunk
            // totals in another order than the single scan: a few float16 steps apart.
            (ArrayData::Float16(w), ArrayData::Float16(c)) => {
                for (&a, &b) in w.iter().zip(c) {
                    let (a, b) = (a.to_f64(), b.to_f64());
                    prop_assert!(close(a, b, 1e-2) || (a - b).abs() <= 1e-2, "{} vs {}", a, b);
                }
            }
            _ => prop_assert_eq!(whole, chunked),
        }
    }
}
