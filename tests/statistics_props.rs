//! `diff` with `prepend`/`append` and weighted `cov` do not depend on the chunking
//! or the worker count: a random small-integer matrix, chunked at random along both
//! axes (its weights and edges chunked at random too) and run on a random number of
//! workers, is compared in the same script with its one-chunk copy. Differences of
//! small integers are exact, so `diff` must be equal bit for bit; `cov` sums in an
//! order that follows the chunks, so it agrees within 1e-12 (NaN where a weight sum
//! at or below `ddof` makes NumPy's factor infinite and meets a zero deviation).

mod run_support;

use proptest::prelude::*;
use run_support::{list, options, random_splits, run_script_printing, tuple};

#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    columns: usize,
    values: Vec<i8>,
    fweights: Vec<u8>,
    aweights: Vec<u8>,
    row_chunks: Vec<usize>,
    column_chunks: Vec<usize>,
    weight_chunks: Vec<usize>,
    workers: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=4, 2usize..=8).prop_flat_map(|(rows, columns)| {
        (
            prop::collection::vec(-4i8..=4, rows * columns),
            prop::collection::vec(1u8..=3, columns),
            prop::collection::vec(1u8..=8, columns),
            random_splits(rows),
            random_splits(columns),
            random_splits(columns),
            1u32..=4,
        )
            .prop_map(
                move |(
                    values,
                    fweights,
                    aweights,
                    row_chunks,
                    column_chunks,
                    weight_chunks,
                    workers,
                )| {
                    Case {
                        rows,
                        columns,
                        values,
                        fweights,
                        aweights,
                        row_chunks,
                        column_chunks,
                        weight_chunks,
                        workers,
                    }
                },
            )
    })
}

fn script(case: &Case) -> String {
    let (m, n) = (case.rows, case.columns);
    format!(
        "import mars.tensor as mt\n\
         x0 = mt.tensor([{values}]).reshape(({m}, {n}))\n\
         x = x0.rechunk(({rows}, {columns}))\n\
         f0 = mt.tensor([{fweights}])\n\
         f = f0.rechunk(({weights},))\n\
         w0 = mt.tensor([{aweights}]) / 4\n\
         w = w0.rechunk(({weights},))\n\
         print(mt.all(mt.diff(x, prepend=-1, append=x[:, :1]) == mt.diff(x0, prepend=-1, append=x0[:, :1])))\n\
         print(mt.all(mt.diff(x, n=2, axis=0, prepend=x[:1] * 3, append=7) == mt.diff(x0, n=2, axis=0, prepend=x0[:1] * 3, append=7)))\n\
         print(mt.all(mt.diff(x, n=3, prepend=x[:, 1:] * 0.5) == mt.diff(x0, n=3, prepend=x0[:, 1:] * 0.5)))\n\
         print(mt.allclose(mt.cov(x, fweights=f, aweights=w), mt.cov(x0, fweights=f0, aweights=w0), rtol=1e-12, atol=1e-12, equal_nan=True))\n\
         print(mt.allclose(mt.cov(x, aweights=w, ddof=0), mt.cov(x0, aweights=w0, ddof=0), rtol=1e-12, atol=1e-12, equal_nan=True))\n\
         print(mt.allclose(mt.cov(x.T, rowvar=False, fweights=f, ddof=2), mt.cov(x0.T, rowvar=False, fweights=f0, ddof=2), rtol=1e-12, atol=1e-12, equal_nan=True))\n\
         print(mt.allclose(mt.cov(x[0], x[-1], aweights=w, bias=True), mt.cov(x0[0], x0[-1], aweights=w0, bias=True), rtol=1e-12, atol=1e-12, equal_nan=True))\n",
        values = list(&case.values),
        fweights = list(&case.fweights),
        aweights = list(&case.aweights),
        rows = tuple(&case.row_chunks),
        columns = tuple(&case.column_chunks),
        weights = tuple(&case.weight_chunks),
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn diff_and_weighted_cov_do_not_depend_on_chunking_or_workers(case in case()) {
        let text = script(&case);
        let (output, result) = run_script_printing(&text, &options(), case.workers);
        prop_assert!(result.is_ok(), "failed: {:?}\nscript:\n{}", result.err(), text);
        prop_assert!(!output.contains("False"), "output:\n{}script:\n{}", output, text);
        prop_assert_eq!(output.matches("True").count(), 7, "output:\n{}", output);
    }
}
