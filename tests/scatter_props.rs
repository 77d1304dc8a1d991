//! Assignment through an integer index (`x[idx] = v`, `x[:, idx] += v`) gives the
//! same tensor whatever the chunking of x, of the index and of the values, and the
//! worker count: random small integer tensors, indices with repeats and negatives,
//! run with random chunkings and worker counts, must print exactly what the
//! single-chunk, single-worker run prints, and a 1-D `=` must equal the result
//! worked out here (the last of repeated indices wins).

mod run_support;

use proptest::prelude::*;
use run_support::{list, outcome, random_splits};

#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    columns: usize,
    values: Vec<i64>,
    /// Positions along axis 0 (from `-rows` to `rows - 1`), then along axis 1.
    row_picks: Vec<i64>,
    column_picks: Vec<i64>,
    row_chunks: Vec<usize>,
    column_chunks: Vec<usize>,
    pick_chunk: usize,
    workers: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=7, 1usize..=5).prop_flat_map(|(rows, columns)| {
        (
            prop::collection::vec(0i64..50, rows * columns),
            prop::collection::vec(-(rows as i64)..rows as i64, 0..=9),
            prop::collection::vec(-(columns as i64)..columns as i64, 1..=6),
            random_splits(rows),
            random_splits(columns),
            1usize..=4,
            1u32..=4,
        )
            .prop_map(
                move |(
                    values,
                    row_picks,
                    column_picks,
                    row_chunks,
                    column_chunks,
                    pick_chunk,
                    workers,
                )| {
                    Case {
                        rows,
                        columns,
                        values,
                        row_picks,
                        column_picks,
                        row_chunks,
                        column_chunks,
                        pick_chunk,
                        workers,
                    }
                },
            )
    })
}

/// The first column after `first[row_picks] = 100 + k` for each pick `k`, worked
/// out directly.
fn expected_column(case: &Case) -> Vec<i64> {
    let mut column: Vec<i64> = (0..case.rows)
        .map(|r| case.values[r * case.columns])
        .collect();
    for (k, &pick) in case.row_picks.iter().enumerate() {
        let row = if pick < 0 {
            pick + case.rows as i64
        } else {
            pick
        };
        column[row as usize] = 100 + k as i64;
    }
    column
}

fn script(case: &Case, chunked: bool) -> String {
    let (r, c) = (case.rows, case.columns);
    let x_chunks = match chunked {
        true => format!(
            ".rechunk((({},), ({},)))",
            list(&case.row_chunks),
            list(&case.column_chunks)
        ),
        false => String::new(),
    };
    let pick_chunks = match chunked {
        true => format!(", chunk_size={}", case.pick_chunk),
        false => String::new(),
    };
    let m = case.row_picks.len();
    let new_values: Vec<i64> = (0..m as i64).map(|k| 100 + k).collect();
    format!(
        "import mars.tensor as mt\n\
         x = mt.tensor([{values}]).reshape({r}, {c}){x_chunks}\n\
         y = x\n\
         rows = mt.array([{rows}], dtype=mt.int64{pick_chunks})\n\
         first = x[:, 0].copy()\n\
         first[rows] = mt.array([{new_values}], dtype=mt.int64{pick_chunks})\n\
         print(first, (first != mt.tensor([{expected}])).any())\n\
         x[rows] = -1\n\
         x[:, [{columns}]] += mt.arange({c_picks}{pick_chunks})\n\
         x[[{rows_list}]] *= 2\n\
         print(y, y.sum())\n",
        values = list(&case.values),
        rows = list(&case.row_picks),
        new_values = list(&new_values),
        expected = list(&expected_column(case)),
        columns = list(&case.column_picks),
        c_picks = case.column_picks.len(),
        rows_list = list(&case.row_picks),
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn assignments_through_indices_do_not_depend_on_chunking_or_workers(case in case()) {
        let reference = outcome(&script(&case, false), 1);
        prop_assert!(!reference.contains("--- error"), "the reference failed:\n{}", reference);
        let first_line = reference.lines().next().unwrap_or_default();
        prop_assert!(first_line.ends_with("] False"), "the column differs:\n{}", reference);
        let chunked = script(&case, true);
        prop_assert_eq!(outcome(&chunked, case.workers), reference, "script:\n{}", chunked);
    }
}
