//! `bincount` and `histogram` give the same counts whatever the chunking of the
//! values (and, chunked differently, of the weights) and the worker count: random
//! small integer data (also scaled to floats, float64 and float32, that land on bin
//! edges), run with a random chunking and worker count, must print exactly what the
//! single-chunk, single-worker run prints, and `bincount` must equal the counts worked out here.

mod run_support;

use proptest::prelude::*;
use run_support::{list, outcome, random_splits};

#[derive(Clone, Debug)]
struct Case {
    values: Vec<i64>,
    bins: usize,
    minlength: usize,
    chunks: Vec<usize>,
    weight_chunks: Vec<usize>,
    workers: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=40).prop_flat_map(|len| {
        (
            prop::collection::vec(0i64..12, len),
            1usize..=9,
            0usize..=15,
            random_splits(len),
            random_splits(len),
            1u32..=4,
        )
            .prop_map(
                |(values, bins, minlength, chunks, weight_chunks, workers)| Case {
                    values,
                    bins,
                    minlength,
                    chunks,
                    weight_chunks,
                    workers,
                },
            )
    })
}

/// `bincount` of the case's values with its `minlength`, worked out directly.
fn expected_bincount(case: &Case) -> Vec<i64> {
    let top = case
        .values
        .iter()
        .map(|&v| v as usize + 1)
        .max()
        .unwrap_or(0);
    let mut counts = vec![0i64; top.max(case.minlength)];
    for &v in &case.values {
        counts[v as usize] += 1;
    }
    counts
}

/// The script, with x and the weights rechunked as the case says (or one chunk).
fn script(case: &Case, chunked: bool) -> String {
    // Weights that are multiples of 1/4 add exactly in any order.
    let weights: Vec<String> = (0..case.values.len())
        .map(|i| format!("{}", (i % 7) as f64 * 0.25 - 0.5))
        .collect();
    let rechunk = |splits: &[usize]| match chunked {
        true => format!(".rechunk((({},),))", list(splits)),
        false => String::new(),
    };
    let (k, m) = (case.bins, case.minlength);
    format!(
        "import mars.tensor as mt\n\
         x = mt.tensor([{values}]){x_chunks}\n\
         w = mt.tensor([{weights}]){w_chunks}\n\
         print(mt.bincount(x), mt.bincount(x, weights=w, minlength={m}))\n\
         print((mt.bincount(x, minlength={m}) != mt.tensor([{expected}])).any())\n\
         f = x * 0.1\n\
         print(mt.histogram(f, bins={k}))\n\
         print(mt.histogram(f, bins={k}, range=(0.2, 0.9)))\n\
         print(mt.histogram(f.astype(mt.float32), bins={k}))\n\
         print(mt.histogram(f.astype(mt.float32), bins={k}, range=(0.2, 0.9)))\n\
         print(mt.histogram(x, bins=[0, 2, 2.5, 7, 11]))\n\
         print(mt.histogram(x, bins=[1, 3, 3, 8], weights=w))\n\
         print(mt.histogram(x - 5, bins={k}, weights=w, density=True))\n",
        values = list(&case.values),
        weights = weights.join(", "),
        x_chunks = rechunk(&case.chunks),
        w_chunks = rechunk(&case.weight_chunks),
        expected = list(&expected_bincount(case)),
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn histograms_do_not_depend_on_chunking_or_workers(case in case()) {
        let reference = outcome(&script(&case, false), 1);
        prop_assert!(!reference.contains("--- error"), "the reference failed:\n{}", reference);
        let bincount_matches = reference.lines().any(|line| line == "False");
        prop_assert!(bincount_matches, "bincount differs from the counts:\n{}", reference);
        let chunked = script(&case, true);
        prop_assert_eq!(outcome(&chunked, case.workers), reference, "script:\n{}", chunked);
    }
}
