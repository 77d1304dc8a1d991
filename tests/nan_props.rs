//! The NaN-aware reductions and scans (`nansum`, `nanmean`, `nanmax`, `nanargmax`,
//! `nancumsum`, ...) give the same answer whatever the chunking and the worker
//! count: random small tensors with NaNs (often whole NaN slices and chunks),
//! infinities and signed zeros, reduced over every axis and over all of them, run
//! with a random chunking and a random worker count must print exactly what the
//! single-chunk, single-worker run prints. Values are small integers, so sums,
//! means, extremes and (with magnitudes up to 2) products are exact and the text
//! must be equal; `nanvar`/`nanstd` are compared within 1e-12 relative inside the
//! script. An all-NaN slice makes `nanargmax` fail, and the failure (its message and
//! the line it names, after the same printed prefix) must not depend on chunking
//! either.

mod run_support;

use proptest::prelude::*;
use run_support::{outcome, random_splits, tuple};

/// Element choices: NaN weighs three of ten.
const VALUES: [&str; 10] = [
    "nan", "nan", "nan", "-2.0", "-1.0", "-0.0", "0.0", "1.0", "2.0", "inf",
];

#[derive(Clone, Debug)]
struct Case {
    shape: Vec<usize>,
    values: Vec<usize>,
    chunks: Vec<Vec<usize>>,
    workers: u32,
}

fn case() -> impl Strategy<Value = Case> {
    prop::collection::vec(1usize..=5, 1..=3).prop_flat_map(|shape| {
        let size: usize = shape.iter().product();
        let chunking: Vec<_> = shape.iter().map(|&len| random_splits(len)).collect();
        (
            prop::collection::vec(0..VALUES.len(), size),
            chunking,
            1u32..=4,
        )
            .prop_map(move |(values, chunks, workers)| Case {
                shape: shape.clone(),
                values,
                chunks,
                workers,
            })
    })
}

/// The script over `x` chunked as `chunks` (`None`: one chunk).
fn script(case: &Case, chunks: Option<&[Vec<usize>]>) -> String {
    let shape: Vec<String> = case.shape.iter().map(usize::to_string).collect();
    let values: Vec<&str> = case.values.iter().map(|&v| VALUES[v]).collect();
    let mut text =
        String::from("import mars.tensor as mt\nnan = float('nan')\ninf = float('inf')\n");
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
    let mut axes: Vec<String> = vec!["None".into()];
    axes.extend((0..case.shape.len()).map(|axis| axis.to_string()));
    for axis in &axes {
        for f in ["nansum", "nanprod", "nanmean", "nanmax", "nanmin"] {
            text.push_str(&format!("print(mt.{f}(x, axis={axis}))\n"));
        }
        text.push_str(&format!(
            "print(mt.nanmean(x, axis={axis}, keepdims=True))\n"
        ));
        for f in ["nanvar", "nanstd"] {
            text.push_str(&format!(
                "v = mt.{f}(x, axis={axis}, ddof=1)\nw = mt.{f}(x0, axis={axis}, ddof=1)\n\
                 print(mt.all((mt.abs(v - w) <= 1e-12 * mt.abs(w)) | (mt.isnan(v) & mt.isnan(w)) | (v == w)))\n"
            ));
        }
    }
    let last = case.shape.len() - 1;
    text.push_str(&format!("print(mt.nancumsum(x, axis={last}))\n"));
    text.push_str("print(mt.nancumprod(x))\n");
    // Last: these fail on an all-NaN slice.
    for axis in &axes {
        for f in ["nanargmax", "nanargmin"] {
            text.push_str(&format!("print(mt.{f}(x, axis={axis}))\n"));
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn nan_reductions_do_not_depend_on_chunking_or_workers(case in case()) {
        let reference = outcome(&script(&case, None), 1);
        prop_assert!(!reference.contains("False"), "a var/std differs:\n{}", reference);
        let chunked = script(&case, Some(&case.chunks));
        // The chunked script has one more line (`x = x0.rechunk(...)` vs `x = x0`):
        // both have it, so line numbers in errors agree.
        prop_assert_eq!(outcome(&chunked, case.workers), reference, "script:\n{}", chunked);
    }
}
