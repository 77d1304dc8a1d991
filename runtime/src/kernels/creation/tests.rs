//! Creation kernels against NumPy 2.4 (`np.arange`, `np.linspace`, `np.eye`), both
//! whole and computed chunk by chunk.

use super::*;
use ndarray::{arr1, arr2, Array1, IxDyn};

fn float64_bits(x: &ArrayData) -> Vec<u64> {
    match x {
        ArrayData::Float64(a) => a.iter().map(|v| v.to_bits()).collect(),
        other => panic!("expected float64, got {}", other.dtype()),
    }
}

fn concat_f64(parts: &[ArrayData]) -> Vec<u64> {
    parts.iter().flat_map(float64_bits).collect()
}

#[test]
fn full_fills_with_the_value_in_its_dtype() {
    let got = full(&[2, 3], Scalar::Float32(1.5)).unwrap();
    assert_eq!(
        got,
        ArrayData::Float32(ndarray::ArrayD::from_elem(IxDyn(&[2, 3]), 1.5))
    );
    let got = full(&[], Scalar::Bool(true)).unwrap();
    assert_eq!(got, ArrayData::from_scalar(Scalar::Bool(true)));
}

#[test]
fn full_of_an_impossible_shape_is_an_error() {
    assert!(full(&[usize::MAX, 2], Scalar::Int64(0)).is_err());
}

#[test]
fn float_arange_matches_numpy_bit_for_bit() {
    // np.arange(0.1, 1.0, 0.1) as bits.
    let expected: [u64; 9] = [
        0x3fb999999999999a,
        0x3fc999999999999a,
        0x3fd3333333333334,
        0x3fd999999999999a,
        0x3fe0000000000000,
        0x3fe3333333333333,
        0x3fe6666666666667,
        0x3fe999999999999a,
        0x3feccccccccccccd,
    ];
    let whole = arange(Scalar::Float64(0.1), Scalar::Float64(0.1), 0, 9).unwrap();
    assert_eq!(float64_bits(&whole), expected);
    // The same values computed in three chunks.
    let parts: Vec<ArrayData> = [(0, 1), (1, 5), (6, 3)]
        .iter()
        .map(|&(offset, len)| arange(Scalar::Float64(0.1), Scalar::Float64(0.1), offset, len))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(concat_f64(&parts), expected);
    // np.arange(-1.0, 1.0, 0.3)
    let got = arange(Scalar::Float64(-1.0), Scalar::Float64(0.3), 0, 7).unwrap();
    let expected = [
        -1.0,
        -0.7,
        -0.3999999999999999,
        -0.09999999999999987,
        0.20000000000000018,
        0.5000000000000002,
        0.8000000000000003,
    ];
    assert_eq!(got, ArrayData::Float64(arr1(&expected).into_dyn()));
}

#[test]
fn float32_arange_computes_in_float32() {
    // np.arange(0.1, 1.0, 0.1, dtype=np.float32)
    let expected = [
        0.10000000149011612f64,
        0.20000000298023224,
        0.30000001192092896,
        0.4000000059604645,
        0.5,
        0.6000000238418579,
        0.7000000476837158,
        0.800000011920929,
        0.9000000357627869,
    ]
    .map(|v| v as f32);
    let got = arange(Scalar::Float32(0.1), Scalar::Float32(0.1), 0, 9).unwrap();
    assert_eq!(got, ArrayData::Float32(arr1(&expected).into_dyn()));
    // np.arange(0, 2**25, 1, dtype=np.float32)[2**24 + 1] == 16777216 (i rounds in f32).
    let got = arange(Scalar::Float32(0.0), Scalar::Float32(1.0), (1 << 24) + 1, 3).unwrap();
    let expected = [16777216.0f32, 16777218.0, 16777220.0];
    assert_eq!(got, ArrayData::Float32(arr1(&expected).into_dyn()));
}

#[test]
fn integer_arange_is_exact() {
    // np.arange(5, -5, -3) and np.arange(-3, 7, 2, dtype=np.int32)
    let got = arange(Scalar::Int64(5), Scalar::Int64(-3), 0, 4).unwrap();
    assert_eq!(got, ArrayData::Int64(arr1(&[5, 2, -1, -4]).into_dyn()));
    let got = arange(Scalar::Int32(-3), Scalar::Int32(2), 2, 3).unwrap();
    assert_eq!(got, ArrayData::Int32(arr1(&[1, 3, 5]).into_dyn()));
}

#[test]
fn bool_arange_stops_at_two_elements() {
    // np.arange(2, dtype=bool) == [False, True]; np.arange(1, 3, dtype=bool) == [True, True]
    let got = arange(Scalar::Bool(false), Scalar::Bool(true), 0, 2).unwrap();
    assert_eq!(got, ArrayData::Bool(arr1(&[false, true]).into_dyn()));
    let got = arange(Scalar::Bool(true), Scalar::Bool(true), 0, 2).unwrap();
    assert_eq!(got, ArrayData::Bool(arr1(&[true, true]).into_dyn()));
    let err = arange(Scalar::Bool(false), Scalar::Bool(true), 0, 3).unwrap_err();
    assert!(err.to_string().contains("at most length 2"), "{err}");
}

/// `np.linspace(start, stop, num, endpoint)` as bits, from NumPy 2.4.
#[rustfmt::skip]
const LINSPACE_CASES: &[(f64, f64, usize, bool, &[u64])] = &[
    (0.0, 1.0, 5, true, &[0x0, 0x3fd0000000000000, 0x3fe0000000000000, 0x3fe8000000000000, 0x3ff0000000000000]),
    (0.0, 1.0, 5, false, &[0x0, 0x3fc999999999999a, 0x3fd999999999999a, 0x3fe3333333333334, 0x3fe999999999999a]),
    (-3.7, 2.2, 7, true, &[0xc00d99999999999a, 0xc005bbbbbbbbbbbc, 0xbffbbbbbbbbbbbbc, 0xbfe8000000000000, 0x3fcddddddddddde0, 0x3ff3777777777778, 0x400199999999999a]),
    (1.0, -1.0, 10, true, &[0x3ff0000000000000, 0x3fe8e38e38e38e39, 0x3fe1c71c71c71c72, 0x3fd5555555555556, 0x3fbc71c71c71c720, 0xbfbc71c71c71c720, 0xbfd5555555555554, 0xbfe1c71c71c71c70, 0xbfe8e38e38e38e38, 0xbff0000000000000]),
    (2.5, 2.5, 1, true, &[0x4004000000000000]),
    (2.5, 7.0, 1, false, &[0x4004000000000000]),
    (0.1, 0.7, 13, true, &[0x3fb999999999999a, 0x3fc3333333333333, 0x3fc999999999999a, 0x3fd0000000000000, 0x3fd3333333333333, 0x3fd6666666666666, 0x3fd999999999999a, 0x3fdccccccccccccc, 0x3fe0000000000000, 0x3fe1999999999999, 0x3fe3333333333333, 0x3fe4cccccccccccc, 0x3fe6666666666666]),
    (1e-310, 2e-310, 4, true, &[0x12688b70e62b, 0x188b64968839, 0x1eae3dbc2a47, 0x24d116e1cc56]),
    (-1e6, 1e-3, 9, false, &[0xc12e848000000000, 0xc12b2071c70de182, 0xc127bc638e1bc304, 0xc12458555529a486, 0xc120f4471c378608, 0xc11b2071c68acf12, 0xc114585554a69216, 0xc10b2071c584aa34, 0xc0fb2071c3786078]),
    (3.0, 10.0, 0, true, &[]),
    // The step underflows to zero, so NumPy divides before multiplying.
    (0.0, 1e-323, 5, true, &[0x0, 0x0, 0x1, 0x2, 0x2]),
    (0.0, 5e-324, 3, true, &[0x0, 0x0, 0x1]),
    (-1e-323, 0.0, 4, false, &[0x8000000000000002, 0x8000000000000002, 0x8000000000000001, 0x0]),
];

#[test]
fn linspace_matches_numpy_bit_for_bit() {
    for &(start, stop, num, endpoint, expected) in LINSPACE_CASES {
        let got = linspace(start, stop, num, endpoint, DType::Float64, 0, num).unwrap();
        assert_eq!(
            float64_bits(&got),
            expected,
            "linspace({start:e}, {stop:e}, {num}, {endpoint})"
        );
    }
}

#[test]
fn linspace_in_chunks_equals_linspace_whole() {
    for &(start, stop, num, endpoint, expected) in LINSPACE_CASES {
        let parts: Vec<ArrayData> = (0..num)
            .step_by(3)
            .map(|offset| {
                let len = 3.min(num - offset);
                linspace(start, stop, num, endpoint, DType::Float64, offset, len)
            })
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(concat_f64(&parts), expected);
    }
}

#[test]
fn linspace_to_other_dtypes() {
    // np.linspace(-2.5, 3.5, 7, dtype=np.int64) floors: [-3, -2, -1, 0, 1, 2, 3]
    let got = linspace(-2.5, 3.5, 7, true, DType::Int64, 0, 7).unwrap();
    assert_eq!(
        got,
        ArrayData::Int64(arr1(&[-3, -2, -1, 0, 1, 2, 3]).into_dyn())
    );
    // np.linspace(-1, 1, 5, dtype=np.int32) == [-1, -1, 0, 0, 1]
    let got = linspace(-1.0, 1.0, 5, true, DType::Int32, 0, 5).unwrap();
    assert_eq!(got, ArrayData::Int32(arr1(&[-1, -1, 0, 0, 1]).into_dyn()));
    // np.linspace(0.0, 1.0, 4, dtype=np.float32) is computed in float64, then cast.
    let got = linspace(0.0, 1.0, 4, true, DType::Float32, 0, 4).unwrap();
    let expected = [
        0.0f32,
        0.3333333432674408f64 as f32,
        0.6666666865348816f64 as f32,
        1.0,
    ];
    assert_eq!(got, ArrayData::Float32(arr1(&expected).into_dyn()));
    // np.linspace(0, 1, 3, dtype=bool) == [False, True, True]
    let got = linspace(0.0, 1.0, 3, true, DType::Bool, 0, 3).unwrap();
    assert_eq!(got, ArrayData::Bool(arr1(&[false, true, true]).into_dyn()));
}

#[test]
fn eye_chunks_assemble_to_numpy_eye() {
    // np.eye(4, 5, k=1) as ints, computed as the four 2x3/2x2 chunks of a 2x2 grid.
    let expected = arr2(&[
        [0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 1, 0],
        [0, 0, 0, 0, 1],
    ]);
    for (row_offset, rows) in [(0, 2), (2, 2)] {
        for (col_offset, cols) in [(0, 3), (3, 2)] {
            let chunk = eye([rows, cols], row_offset, col_offset, 1, DType::Int64).unwrap();
            let want = expected
                .slice(ndarray::s![
                    row_offset..row_offset + rows,
                    col_offset..col_offset + cols
                ])
                .to_owned()
                .into_dyn();
            assert_eq!(
                chunk,
                ArrayData::Int64(want),
                "chunk at ({row_offset}, {col_offset})"
            );
        }
    }
    // np.eye(3, 3, k=-2, dtype=bool)
    let got = eye([3, 3], 0, 0, -2, DType::Bool).unwrap();
    let mut want = ndarray::Array2::from_elem((3, 3), false);
    want[[2, 0]] = true;
    assert_eq!(got, ArrayData::Bool(want.into_dyn()));
    // A diagonal far outside the chunk.
    let got = eye([2, 2], 0, 0, i64::MAX, DType::Float64).unwrap();
    assert_eq!(
        got,
        ArrayData::Float64(ndarray::ArrayD::zeros(IxDyn(&[2, 2])))
    );
}

#[test]
fn literal_converts_each_value_to_the_dtype() {
    let values = [
        Scalar::Int64(1),
        Scalar::Float64(2.9),
        Scalar::Bool(true),
        Scalar::Float64(-0.5),
    ];
    let got = literal(&[2, 2], &values, DType::Int32).unwrap();
    assert_eq!(got, ArrayData::Int32(arr2(&[[1, 2], [1, 0]]).into_dyn()));
    let got = literal(&[4], &values, DType::Float64).unwrap();
    assert_eq!(
        got,
        ArrayData::Float64(Array1::from(vec![1.0, 2.9, 1.0, -0.5]).into_dyn())
    );
    assert!(literal(&[3], &values, DType::Float64).is_err());
}
