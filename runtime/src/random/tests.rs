//! The generator's known answers, its independence from chunking, its statistics,
//! and pinned values that must never change (saved results depend on them).

use super::*;
use proptest::prelude::*;

#[test]
fn philox_matches_random123_known_answers() {
    // Random123's kat_vectors for philox4x32_10.
    assert_eq!(
        philox4x32_10([0, 0, 0, 0], [0, 0]),
        [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    );
    assert_eq!(
        philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
        [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
    );
    assert_eq!(
        philox4x32_10(
            [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
            [0xa4093822, 0x299f31d0]
        ),
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    );
}

const ALL_DISTS: [RandomDist; 6] = [
    RandomDist::Uniform01,
    RandomDist::Uniform {
        low: -2.0,
        high: 3.0,
    },
    RandomDist::StandardNormal,
    RandomDist::Normal {
        loc: 10.0,
        scale: 0.5,
    },
    RandomDist::Randint { low: -5, high: 7 },
    RandomDist::Randint {
        low: i64::MIN,
        high: i64::MAX,
    },
];

fn float_values(x: &ArrayData) -> Vec<f64> {
    match x {
        ArrayData::Float64(a) => a.iter().copied().collect(),
        other => panic!("expected float64, got {}", other.dtype()),
    }
}

fn int_values(x: &ArrayData) -> Vec<i64> {
    match x {
        ArrayData::Int64(a) => a.iter().copied().collect(),
        other => panic!("expected int64, got {}", other.dtype()),
    }
}

/// Cuts `len` into consecutive pieces at the given fractions.
fn split_points(len: usize, cuts: &[f64]) -> Vec<(usize, usize)> {
    let mut points: Vec<usize> = cuts.iter().map(|c| (c * len as f64) as usize).collect();
    points.extend([0, len]);
    points.sort_unstable();
    points.dedup();
    points.windows(2).map(|w| (w[0], w[1] - w[0])).collect()
}

/// Every chunk of a grid over `global_shape`, as (offset, shape).
fn grid(global_shape: &[usize], cuts: &[Vec<f64>]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut chunks = vec![(vec![], vec![])];
    for (d, &len) in global_shape.iter().enumerate() {
        let pieces = split_points(len, &cuts[d]);
        chunks = chunks
            .into_iter()
            .flat_map(|(offset, shape)| {
                pieces.iter().map(move |&(start, size)| {
                    let mut offset: Vec<usize> = offset.clone();
                    let mut shape: Vec<usize> = shape.clone();
                    offset.push(start);
                    shape.push(size);
                    (offset, shape)
                })
            })
            .collect();
    }
    chunks
}

fn chunking() -> impl Strategy<Value = (Vec<usize>, Vec<Vec<f64>>)> {
    prop::collection::vec(1usize..7, 0..=3).prop_flat_map(|shape| {
        let cuts = prop::collection::vec(prop::collection::vec(0.0f64..1.0, 0..3), shape.len());
        (Just(shape), cuts)
    })
}

proptest! {
    #[test]
    fn values_do_not_depend_on_the_chunking(
        (global_shape, cuts) in chunking(),
        seed in any::<u64>(),
        stream in any::<u64>(),
    ) {
        let origin = vec![0; global_shape.len()];
        for dist in ALL_DISTS {
            let whole = random_chunk(dist, seed, stream, &global_shape, &origin, &global_shape)
                .unwrap();
            for (offset, shape) in grid(&global_shape, &cuts) {
                let chunk = random_chunk(dist, seed, stream, &global_shape, &offset, &shape)
                    .unwrap();
                let slice_info: Vec<ndarray::SliceInfoElem> = offset
                    .iter()
                    .zip(&shape)
                    .map(|(&o, &s)| ndarray::Slice::from(o..o + s).into())
                    .collect();
                let expected = crate::with_array!(&whole, a => {
                    Element::into_data(a.slice(slice_info.as_slice()).to_owned())
                });
                prop_assert_eq!(&chunk, &expected, "{:?} chunk at {:?}", dist, offset);
            }
        }
    }
}

use crate::kernels::Element;

fn sample(dist: RandomDist, n: usize) -> ArrayData {
    random_chunk(dist, 2024, 7, &[n], &[0], &[n]).unwrap()
}

fn mean_and_variance(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, variance)
}

#[test]
fn uniform_has_the_moments_of_the_unit_interval() {
    let values = float_values(&sample(RandomDist::Uniform01, 100_000));
    assert!(values.iter().all(|&v| (0.0..1.0).contains(&v)));
    let (mean, variance) = mean_and_variance(&values);
    // Standard errors: 0.0009 for the mean, 0.0003 for the variance.
    assert!((mean - 0.5).abs() < 0.005, "mean {mean}");
    assert!(
        (variance - 1.0 / 12.0).abs() < 0.0015,
        "variance {variance}"
    );
    // Every value is a multiple of 2^-53.
    assert!(values.iter().all(|&v| (v * 2f64.powi(53)).fract() == 0.0));
}

#[test]
fn uniform_with_bounds_stays_inside_them() {
    let values = float_values(&sample(
        RandomDist::Uniform {
            low: -2.0,
            high: 3.0,
        },
        10_000,
    ));
    assert!(values.iter().all(|&v| (-2.0..3.0).contains(&v)));
    let (mean, _) = mean_and_variance(&values);
    assert!((mean - 0.5).abs() < 0.1, "mean {mean}");
}

#[test]
fn normal_has_the_moments_and_shape_of_a_gaussian() {
    let values = float_values(&sample(RandomDist::StandardNormal, 100_000));
    let (mean, variance) = mean_and_variance(&values);
    assert!(mean.abs() < 0.02, "mean {mean}");
    assert!(
        (variance.sqrt() - 1.0).abs() < 0.02,
        "std {}",
        variance.sqrt()
    );
    // P(|z| < 1) = 0.6827 and P(|z| < 2) = 0.9545 for a Gaussian.
    let within = |k: f64| values.iter().filter(|v| v.abs() < k).count() as f64 / 1e5;
    assert!((within(1.0) - 0.6827).abs() < 0.01, "{}", within(1.0));
    assert!((within(2.0) - 0.9545).abs() < 0.005, "{}", within(2.0));
    let shifted = float_values(&sample(
        RandomDist::Normal {
            loc: 10.0,
            scale: 0.5,
        },
        100_000,
    ));
    let (mean, variance) = mean_and_variance(&shifted);
    assert!((mean - 10.0).abs() < 0.01, "mean {mean}");
    assert!(
        (variance.sqrt() - 0.5).abs() < 0.01,
        "std {}",
        variance.sqrt()
    );
}

#[test]
fn randint_is_uniform_over_its_range() {
    let values = int_values(&sample(RandomDist::Randint { low: -3, high: 7 }, 100_000));
    let mut counts = [0usize; 10];
    for v in values {
        assert!((-3..7).contains(&v), "{v}");
        counts[(v + 3) as usize] += 1;
    }
    // Each bucket expects 10000 with a standard deviation of about 95.
    for (bucket, count) in counts.iter().enumerate() {
        assert!(count.abs_diff(10_000) < 600, "bucket {bucket}: {count}");
    }
}

#[test]
fn randint_over_huge_ranges_stays_in_range_and_centred() {
    // A range of 1.5 * 2^63 rejects a quarter of all words, so extra words are used.
    let low = -(1i64 << 62) - 1;
    let high = i64::MAX;
    let values = int_values(&sample(RandomDist::Randint { low, high }, 20_000));
    assert!(values.iter().all(|&v| v >= low && v < high));
    let scaled: Vec<f64> = values.iter().map(|&v| v as f64 / 2f64.powi(63)).collect();
    let (mean, _) = mean_and_variance(&scaled);
    let expected_mean = (low as f64 + high as f64) / 2.0 / 2f64.powi(63);
    assert!(
        (mean - expected_mean).abs() < 0.02,
        "mean {mean} vs {expected_mean}"
    );
    let full = int_values(&sample(
        RandomDist::Randint {
            low: i64::MIN,
            high: i64::MAX,
        },
        1000,
    ));
    assert!(full.iter().all(|&v| v < i64::MAX));
}

#[test]
fn lemire_rejects_exactly_the_biased_words() {
    // range 3: 2^64 mod 3 == 1, so only the word whose product has low bits 0 is
    // rejected: word 0.
    assert_eq!(lemire_bounded(0, 3), None);
    assert_eq!(lemire_bounded(1, 3), Some(0));
    assert_eq!(lemire_bounded(u64::MAX, 3), Some(2));
    // A power of two never rejects: the top bits are the answer.
    assert_eq!(lemire_bounded(0, 4), Some(0));
    assert_eq!(lemire_bounded(u64::MAX, 4), Some(3));
}

#[test]
fn seeds_and_streams_give_different_values() {
    let shape = [64];
    let draw = |seed, stream| {
        float_values(
            &random_chunk(RandomDist::Uniform01, seed, stream, &shape, &[0], &shape).unwrap(),
        )
    };
    assert_ne!(draw(1, 0), draw(2, 0));
    assert_ne!(draw(1, 0), draw(1, 1));
    assert_eq!(draw(1, 0), draw(1, 0));
}

#[test]
fn chunks_outside_the_tensor_are_an_error() {
    let err = random_chunk(RandomDist::Uniform01, 0, 0, &[4], &[3], &[2]).unwrap_err();
    assert!(err.to_string().contains("not inside"), "{err}");
    assert!(random_chunk(RandomDist::Uniform01, 0, 0, &[4, 4], &[0], &[2]).is_err());
}

#[test]
fn zero_dimensional_and_empty_chunks() {
    let scalar = random_chunk(RandomDist::Uniform01, 5, 0, &[], &[], &[]).unwrap();
    assert_eq!(scalar.shape(), &[] as &[usize]);
    assert_eq!(
        float_values(&scalar),
        [RandomKey { seed: 5, stream: 0 }.uniform01(0)]
    );
    let empty = random_chunk(RandomDist::StandardNormal, 5, 0, &[3, 0], &[0, 0], &[3, 0]).unwrap();
    assert_eq!(empty.shape(), &[3, 0]);
}

fn pinned(dist: RandomDist) -> ArrayData {
    random_chunk(dist, 42, 3, &[2, 3], &[0, 0], &[2, 3]).unwrap()
}

#[test]
fn uniform_and_randint_values_are_pinned_exactly() {
    // Uniform and integer draws use only integer and power-of-two arithmetic, so
    // these values are the same on every platform, forever.
    assert_eq!(
        float_values(&pinned(RandomDist::Uniform01)),
        [
            0.44562593499205727,
            0.11550436064650016,
            0.8966434924679225,
            0.7197049572687703,
            0.18362412841275944,
            0.18618484545159897
        ]
    );
    assert_eq!(
        int_values(&pinned(RandomDist::Randint { low: -5, high: 7 })),
        [0, -4, 5, 3, -3, -3]
    );
    assert_eq!(
        int_values(&pinned(RandomDist::Randint {
            low: i64::MIN,
            high: i64::MAX
        })),
        [
            -1003024461448763727,
            -7092692656611336389,
            7316780994058109330,
            4052841118462299186,
            -5836104734266623259,
            -5788867842405963753
        ]
    );
}

#[test]
fn normal_values_are_pinned_to_libm_accuracy() {
    // Box–Muller calls ln and cos, which may differ in the last bit between libms.
    let expected = [
        -0.8861163158072747,
        0.0040718953452666224,
        -1.5575207562419735,
        -1.0228850976624029,
        -0.18094752299336925,
        0.14056958547904919,
    ];
    let got = float_values(&pinned(RandomDist::StandardNormal));
    for (g, e) in got.iter().zip(expected) {
        assert!((g - e).abs() <= 1e-14 * e.abs().max(1.0), "{g} vs {e}");
    }
}
