//! Selection by a boolean mask (`x[mask]`, masks of the leading axes, `nonzero`,
//! `argwhere`, `flatnonzero`, `compress` along every axis) and by integer indices
//! (`x[idx]` along every axis, with repeats and negative indices, the index itself
//! chunked at random; and two index arrays at once) gives the same answer whatever the chunking and the worker
//! count: random small integer tensors, masks that are often empty in whole chunks
//! (or everywhere), run with a random chunking and a random worker count, must
//! print exactly what the single-chunk, single-worker run prints.

mod run_support;

use proptest::prelude::*;
use run_support::{outcome, random_splits, tuple};

#[derive(Clone, Debug)]
struct Case {
    shape: Vec<usize>,
    values: Vec<i64>,
    threshold: i64,
    /// Per axis: positions (from `-len` to `len - 1`) to index it with.
    picks: Vec<Vec<i64>>,
    /// How the index of each axis is chunked (its chunk length).
    pick_chunks: Vec<usize>,
    chunks: Vec<Vec<usize>>,
    workers: u32,
}

fn case() -> impl Strategy<Value = Case> {
    prop::collection::vec(1usize..=5, 1..=3).prop_flat_map(|shape| {
        let size: usize = shape.iter().product();
        let chunking: Vec<_> = shape.iter().map(|&len| random_splits(len)).collect();
        let picks: Vec<_> = shape
            .iter()
            .map(|&len| prop::collection::vec(-(len as i64)..len as i64, 0..=7))
            .collect();
        let pick_chunks = prop::collection::vec(1usize..=4, shape.len());
        (
            prop::collection::vec(0i64..10, size),
            0i64..=10,
            picks,
            pick_chunks,
            chunking,
            1u32..=4,
        )
            .prop_map(
                move |(values, threshold, picks, pick_chunks, chunks, workers)| Case {
                    shape: shape.clone(),
                    values,
                    threshold,
                    picks,
                    pick_chunks,
                    chunks,
                    workers,
                },
            )
    })
}

/// The script over `x` chunked as `chunks` (`None`: one chunk).
fn script(case: &Case, chunks: Option<&[Vec<usize>]>) -> String {
    let shape: Vec<String> = case.shape.iter().map(usize::to_string).collect();
    let values: Vec<String> = case.values.iter().map(i64::to_string).collect();
    let mut text = String::from("import mars.tensor as mt\n");
    text.push_str(&format!(
        "x0 = mt.tensor([{}]).reshape({})\n",
        values.join(", "),
        tuple(&shape)
    ));
    match chunks {
        None => text.push_str("x = x0\n"),
        Some(chunks) => {
            let axes: Vec<String> = chunks
                .iter()
                .map(|c| tuple(&c.iter().map(usize::to_string).collect::<Vec<_>>()))
                .collect();
            text.push_str(&format!("x = x0.rechunk({})\n", tuple(&axes)));
        }
    }
    let t = case.threshold;
    text.push_str(&format!("m = x > {t}\n"));
    text.push_str("s = x[m]\nprint(s, s.shape, s.sum())\n");
    text.push_str("c = mt.nonzero(m)\nfor axis in c:\n    print(axis)\n");
    text.push_str("print(mt.argwhere(m))\nprint(mt.flatnonzero(x % 3 == 0))\n");
    let ndim = case.shape.len();
    // A mask of the leading axis: rows whose first element passes.
    let first_column = std::iter::repeat_n(", 0", ndim - 1).collect::<String>();
    text.push_str(&format!(
        "rows = x[:{first_column}] >= {t}\nprint(x[rows], x[rows].shape)\n"
    ));
    for axis in 0..ndim {
        let len = case.shape[axis];
        let keep: Vec<&str> = (0..len)
            .map(|i| {
                if (i + t as usize).is_multiple_of(2) {
                    "True"
                } else {
                    "False"
                }
            })
            .collect();
        text.push_str(&format!(
            "print(mt.compress([{}], x, axis={axis}))\n",
            keep.join(", ")
        ));
    }
    for axis in 0..ndim {
        let picks: Vec<String> = case.picks[axis].iter().map(i64::to_string).collect();
        let leading = ":, ".repeat(axis);
        let rechunk = match chunks {
            Some(_) => format!(".rechunk({})", case.pick_chunks[axis]),
            None => String::new(),
        };
        text.push_str(&format!(
            "i = mt.array([{}], dtype=mt.int64){rechunk}\nprint(x[{leading}i], x[{leading}i].shape)\n",
            picks.join(", "),
        ));
    }
    // Several index arrays at once (broadcast together): the first axis's picks with
    // the last axis's, cut to one length; adjacent when ndim is 2, apart when 3.
    if ndim >= 2 {
        let k = case.picks[0].len().min(case.picks[ndim - 1].len());
        let list = |axis: usize| {
            let picks: Vec<String> = case.picks[axis][..k].iter().map(i64::to_string).collect();
            format!("mt.array([{}], dtype=mt.int64)", picks.join(", "))
        };
        let middle = ", :".repeat(ndim - 2);
        text.push_str(&format!(
            "j0 = {}\nj1 = {}\nprint(x[j0{middle}, j1], x[j0{middle}, j1].shape)\n",
            list(0),
            list(ndim - 1)
        ));
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn selections_do_not_depend_on_chunking_or_workers(case in case()) {
        let reference = outcome(&script(&case, None), 1);
        prop_assert!(!reference.contains("--- error"), "the reference failed:\n{}", reference);
        let chunked = script(&case, Some(&case.chunks));
        prop_assert_eq!(outcome(&chunked, case.workers), reference, "script:\n{}", chunked);
    }
}
