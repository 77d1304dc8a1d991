//! Sorting and what is built on it (`sort`, `argsort`, `partition`, `argpartition`,
//! `unique` with its three extra results, `searchsorted`, `median`, `percentile`,
//! `topk`) gives the same answer whatever the chunking and the worker count: random
//! small tensors with many duplicates and NaNs, sorted through the distributed sort
//! (PSRS) when chunked, must print exactly what the single-chunk, single-worker run
//! prints (which sorts each lane in one kernel, no stage).

mod run_support;

use proptest::prelude::*;
use run_support::{outcome, random_splits, tuple};

#[derive(Clone, Debug)]
struct Case {
    /// Elements; `None` is NaN.
    values: Vec<Option<i8>>,
    chunks: Vec<usize>,
    /// A 2-D integer tensor: its shape, values and chunking.
    grid: (usize, usize),
    grid_values: Vec<i64>,
    grid_chunks: (Vec<usize>, Vec<usize>),
    k: usize,
    workers: u32,
}

/// Chunks of 1 to 12 elements covering `len` (so most 1-D sorts are distributed).
fn chunk_lengths(len: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..=12, len).prop_map(move |sizes| {
        let mut left = len;
        let mut out = Vec::new();
        for size in sizes {
            if left == 0 {
                break;
            }
            out.push(size.min(left));
            left -= size.min(left);
        }
        out
    })
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=120, 1usize..=6, 1usize..=6).prop_flat_map(|(len, rows, cols)| {
        (
            prop::collection::vec(prop::option::weighted(0.85, -3i8..=3), len),
            chunk_lengths(len),
            prop::collection::vec(0i64..5, rows * cols),
            random_splits(rows),
            random_splits(cols),
            0usize..=len,
            1u32..=4,
        )
            .prop_map(
                move |(values, chunks, grid_values, row_chunks, col_chunks, k, workers)| Case {
                    values,
                    chunks,
                    grid: (rows, cols),
                    grid_values,
                    grid_chunks: (row_chunks, col_chunks),
                    k,
                    workers,
                },
            )
    })
}

/// The script, chunked as the case says (`false`: one chunk each).
fn script(case: &Case, chunked: bool) -> String {
    let values: Vec<String> = case
        .values
        .iter()
        .map(|v| match v {
            Some(v) => format!("{v}.5"),
            None => "nan".to_string(),
        })
        .collect();
    let grid: Vec<String> = case.grid_values.iter().map(i64::to_string).collect();
    let (rows, cols) = case.grid;
    let mut text = String::from("import mars.tensor as mt\nnan = float('nan')\n");
    text.push_str(&format!("x = mt.tensor([{}])\n", values.join(", ")));
    text.push_str(&format!(
        "g = mt.tensor([{}]).reshape(({rows}, {cols}))\n",
        grid.join(", ")
    ));
    if chunked {
        text.push_str(&format!("x = x.rechunk(({},))\n", tuple(&case.chunks)));
        text.push_str(&format!(
            "g = g.rechunk(({}, {}))\n",
            tuple(&case.grid_chunks.0),
            tuple(&case.grid_chunks.1)
        ));
    }
    let k = case.k;
    text.push_str(
        "s = mt.sort(x)\nprint(s)\nprint(mt.argsort(x))\n\
         print(mt.unique(x, return_index=True, return_inverse=True, return_counts=True))\n\
         print(mt.searchsorted(s, [-1.5, 0.5, 2.0, nan]), mt.searchsorted(s, 0.5, side='right'))\n\
         print(mt.median(x), mt.percentile(x, [0, 30, 50, 95, 100]))\n",
    );
    text.push_str(&format!(
        "print(mt.topk(x, {k}), mt.topk(x, {k}, largest=False, return_index=True))\n"
    ));
    // `partition` is the stable sort: what NumPy fixes of it (element kth, the
    // sides as sorted sets) must not depend on the chunking either.
    let kth = k.min(case.values.len() - 1);
    text.push_str(&format!(
        "p = mt.partition(x, {kth})\nq = x[mt.argpartition(x, [0, {kth}, -1])]\n\
         print(p[{kth}], mt.sort(p[:{kth}]), mt.sort(p[{kth} + 1:]), q[{kth}], mt.sort(q[{kth} + 1:]))\n\
         print(mt.partition(g, -1, axis=0)[-1], mt.sort(mt.partition(g, 0, axis=None)[1:]))\n"
    ));
    text.push_str(
        "print(mt.sort(g), mt.sort(g, axis=0), mt.sort(g, axis=None))\n\
         print(mt.argsort(g, axis=0), mt.argsort(g, axis=None))\n\
         print(mt.unique(g, return_counts=True), mt.median(g, axis=0), mt.quantile(g, 0.25, axis=1))\n\
         g.sort(axis=0)\nprint(g)\n",
    );
    text
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn sorts_do_not_depend_on_chunking_or_workers(case in case()) {
        let reference = outcome(&script(&case, false), 1);
        prop_assert!(!reference.contains("--- error"), "the reference failed:\n{}", reference);
        let chunked = script(&case, true);
        prop_assert_eq!(outcome(&chunked, case.workers), reference, "script:\n{}", chunked);
    }
}
