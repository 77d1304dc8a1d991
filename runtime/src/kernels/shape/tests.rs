//! Shape kernels against NumPy 2.4 values, plus a property test of slicing with
//! arbitrary steps against direct element lookup.

use super::*;
use proptest::prelude::*;

fn array<T: Element>(shape: &[usize], values: Vec<T>) -> ArrayData {
    T::into_data(ArrayD::from_shape_vec(IxDyn(shape), values).expect("test data fits its shape"))
}

/// `np.arange(24).reshape(2, 3, 4)`.
fn x() -> ArrayData {
    array(&[2, 3, 4], (0..24_i64).collect())
}

fn values(data: &ArrayData) -> Vec<i64> {
    match data {
        ArrayData::Int64(a) => {
            assert!(a.is_standard_layout(), "kernels return C-contiguous arrays");
            a.iter().copied().collect()
        }
        other => panic!("expected int64, got {}", other.dtype()),
    }
}

#[test]
fn transpose_and_reshape_match_numpy() {
    let t = transpose(&x(), &[2, 0, 1]).unwrap();
    assert_eq!(t.shape(), &[4, 2, 3]);
    let expected = [
        0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23,
    ];
    assert_eq!(values(&t), expected);
    // Reshaping a transposed (non-contiguous) array reads it in C order.
    let swapped = transpose(&x(), &[1, 0, 2]).unwrap();
    let r = reshape(&swapped, &[6, 4]).unwrap();
    let expected = [
        0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23,
    ];
    assert_eq!(values(&r), expected);
    assert!(reshape(&x(), &[5, 5]).is_err());
    assert!(transpose(&x(), &[0, 0, 1]).is_err());
    assert!(transpose(&x(), &[0, 1]).is_err());
}

#[test]
fn expand_dims_and_squeeze_round_trip() {
    let e = expand_dims(&x(), &[3, 0]).unwrap();
    assert_eq!(e.shape(), &[1, 2, 3, 1, 4]);
    let s = squeeze(&e, &[0, 3]).unwrap();
    assert_eq!(s, x());
    assert_eq!(
        squeeze(&x(), &[1]),
        Err(KernelError(
            "cannot select an axis to squeeze out which has size not equal to one".into()
        ))
    );
    assert!(expand_dims(&x(), &[5]).is_err());
}

#[test]
fn broadcast_to_materializes_numpy_broadcasting() {
    let column = slice(
        &x(),
        &[
            SliceItem::Range {
                start: 0,
                step: 1,
                len: 2,
            },
            SliceItem::Range {
                start: 0,
                step: 1,
                len: 1,
            },
        ],
    )
    .unwrap();
    let b = broadcast_to(&column, &[3, 2, 3, 4]).unwrap();
    assert_eq!(b.shape(), &[3, 2, 3, 4]);
    // np.broadcast_to(x[:, :1, :], (3, 2, 3, 4)).ravel()[:30]
    let head = [
        0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 0, 1,
        2, 3, 0, 1,
    ];
    assert_eq!(values(&b)[..30], head);
    assert!(broadcast_to(&x(), &[2, 2, 4]).is_err());
}

#[test]
fn slicing_with_negative_steps_and_new_axes_matches_numpy() {
    // x[1, ::-2, None, 3:0:-2]
    let items = [
        SliceItem::Index(1),
        SliceItem::Range {
            start: 2,
            step: -2,
            len: 2,
        },
        SliceItem::NewAxis,
        SliceItem::Range {
            start: 3,
            step: -2,
            len: 2,
        },
    ];
    let y = slice(&x(), &items).unwrap();
    assert_eq!(y.shape(), &[2, 1, 2]);
    assert_eq!(values(&y), [23, 21, 15, 13]);
    // x[:, 2:0:-1, 1]: trailing axes and leading full ranges.
    let items = [
        SliceItem::Range {
            start: 0,
            step: 1,
            len: 2,
        },
        SliceItem::Range {
            start: 2,
            step: -1,
            len: 2,
        },
        SliceItem::Index(1),
    ];
    assert_eq!(values(&slice(&x(), &items).unwrap()), [9, 5, 21, 17]);
    let empty = [SliceItem::Range {
        start: 7,
        step: -3,
        len: 0,
    }];
    assert_eq!(slice(&x(), &empty).unwrap().shape(), &[0, 3, 4]);
}

#[test]
fn bad_slices_are_errors_not_panics() {
    let out_of_range = [SliceItem::Index(2)];
    assert!(slice(&x(), &out_of_range).is_err());
    let overrun = [SliceItem::Range {
        start: 1,
        step: 1,
        len: 2,
    }];
    assert!(slice(&x(), &overrun).is_err());
    let zero_step = [SliceItem::Range {
        start: 0,
        step: 0,
        len: 1,
    }];
    assert!(slice(&x(), &zero_step).is_err());
    let too_many = [SliceItem::Index(0); 4];
    assert!(slice(&x(), &too_many).is_err());
}

#[test]
fn concatenate_rejoins_split_chunks() {
    let left = slice(
        &x(),
        &[
            SliceItem::Range {
                start: 0,
                step: 1,
                len: 2,
            },
            SliceItem::Range {
                start: 0,
                step: 1,
                len: 1,
            },
        ],
    )
    .unwrap();
    let right = slice(
        &x(),
        &[
            SliceItem::Range {
                start: 0,
                step: 1,
                len: 2,
            },
            SliceItem::Range {
                start: 1,
                step: 1,
                len: 2,
            },
        ],
    )
    .unwrap();
    assert_eq!(concatenate(&[&left, &right], 1).unwrap(), x());
    assert!(concatenate(&[&left, &right], 0).is_err());
    assert!(concatenate(&[], 0).is_err());
    let floats = array(&[2, 1, 4], vec![0.0_f64; 8]);
    assert!(concatenate(&[&left, &floats], 1).is_err());
}

proptest! {
    #[test]
    fn slices_pick_the_positions_they_name(
        extent in 1usize..12,
        start_frac in 0.0f64..1.0,
        step in prop::sample::select(vec![-4isize, -3, -2, -1, 1, 2, 3, 5]),
        len_frac in 0.0f64..1.0,
    ) {
        let start = ((extent as f64 * start_frac) as usize).min(extent - 1);
        // How many positions fit from `start` in the direction of `step`.
        let room = if step > 0 {
            (extent - 1 - start) / step as usize + 1
        } else {
            start / step.unsigned_abs() + 1
        };
        let len = (room as f64 * len_frac) as usize;
        let data: Vec<i64> = (0..extent as i64).map(|v| v * 10).collect();
        let x = array(&[extent], data.clone());
        let got = slice(&x, &[SliceItem::Range { start, step, len }]).unwrap();
        let expected: Vec<i64> = (0..len)
            .map(|j| data[(start as isize + j as isize * step) as usize])
            .collect();
        prop_assert_eq!(values(&got), expected);
    }
}
