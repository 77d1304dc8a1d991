//! Running scripts end to end, through the driver as the CLI does:
//! - every example runs; where `tests/expected/NAME.out` exists (NumPy's output, see
//!   tests/README.md) marsc prints the same, numbers within the contract's tolerance,
//!   with any worker count and with small automatic chunks;
//! - examples with random numbers print the same with 1, 2 and 3 workers and with a
//!   different explicit chunking;
//! - `tests/cases/run/ok/*.mt` (one per op family, odd chunkings) print what NumPy
//!   prints (`NAME.out` beside each, made with `tests/numpy_oracle.py`), with the JIT
//!   and without it, signed zeros included;
//! - `tests/cases/run/err/*.mt` fail at run time with a diagnostic naming the
//!   expression, after printing what precedes the failing statement, as Python does
//!   (insta snapshots of both, the same with 1 and 3 workers);
//! - `--stats-json` figures of a run with pinned placement, worked out by hand.

mod run_support;

use marsc::driver::Options;
use marsc::fuse::Fusion;
use marsc::subtask::Placement;
use marsc_tests::repo_root;
use run_support::{
    compare_output, options, output_of, run_script, run_script_printing, scripts_in, tolerance_for,
};
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn check_against(path: &Path, expected: &Path, options: &Options, workers: u32) {
    let text = read(path);
    let output = output_of(&text, options, workers);
    if let Err(message) = compare_output(&output, &read(expected), tolerance_for(&text)) {
        panic!("{} with {workers} workers: {message}", path.display());
    }
}

#[test]
fn examples_print_what_numpy_prints() {
    let root = repo_root();
    let mut checked = 0;
    for script in scripts_in(&root.join("examples")) {
        let name = script
            .file_stem()
            .expect("file name")
            .to_string_lossy()
            .into_owned();
        let expected = root.join("tests/expected").join(format!("{name}.out"));
        if expected.exists() {
            check_against(&script, &expected, &options(), 2);
            checked += 1;
        }
    }
    assert!(
        checked >= 12,
        "only {checked} examples have expected output"
    );
}

#[test]
fn examples_match_numpy_with_small_chunks_and_three_workers() {
    let root = repo_root();
    let small = Options {
        chunk_bytes: 8 << 10,
        ..options()
    };
    for name in [
        "column_summary",
        "pairwise_distances",
        "softmax_rows",
        "heat_equation",
    ] {
        let script = root.join("examples").join(format!("{name}.mt"));
        let expected = root.join("tests/expected").join(format!("{name}.out"));
        check_against(&script, &expected, &small, 3);
    }
}

#[test]
fn examples_without_numpy_output_do_not_depend_on_workers() {
    let root = repo_root();
    for script in scripts_in(&root.join("examples")) {
        let name = script
            .file_stem()
            .expect("file name")
            .to_string_lossy()
            .into_owned();
        if root
            .join("tests/expected")
            .join(format!("{name}.out"))
            .exists()
        {
            continue;
        }
        let text = read(&script);
        let one = output_of(&text, &options(), 1);
        assert!(!one.is_empty(), "{name} printed nothing");
        for workers in [2, 3] {
            assert_eq!(
                output_of(&text, &options(), workers),
                one,
                "{name} with {workers} workers"
            );
        }
    }
}

/// The output with every printed chunking (`chunks: ((...),)`) removed.
fn without_chunkings(output: &str) -> String {
    output
        .lines()
        .map(|line| line.split(" chunks:").next().unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn random_examples_do_not_depend_on_chunking() {
    let root = repo_root();
    let rechunked = [
        ("monte_carlo_pi", "chunks=250_000", "chunks=300_001"),
        ("random_walk", "chunks=(16, 5_000)", "chunks=(10, 3_333)"),
        ("histogram", "chunks=250_000", "chunks=300_001"),
        (
            "monte_carlo_norm",
            "chunks=(250_000, 2)",
            "chunks=(300_001, 1)",
        ),
    ];
    for (name, from, to) in rechunked {
        let text = read(&root.join("examples").join(format!("{name}.mt")));
        assert!(text.contains(from), "{name} no longer says {from}");
        let original = without_chunkings(&output_of(&text, &options(), 2));
        let other = without_chunkings(&output_of(&text.replace(from, to), &options(), 3));
        if let Err(message) = compare_output(&other, &original, 1e-12) {
            panic!("{name} rechunked with {to}: {message}");
        }
    }
}

#[test]
fn run_cases_print_what_numpy_prints() {
    let dir = repo_root().join("tests/cases/run/ok");
    let scripts = scripts_in(&dir);
    assert!(!scripts.is_empty());
    for script in scripts {
        let expected = script.with_extension("out");
        assert!(expected.exists(), "{} has no .out file", script.display());
        for workers in [1, 3] {
            check_against(&script, &expected, &options(), workers);
        }
    }
}

#[test]
fn run_cases_print_what_numpy_prints_without_the_jit() {
    let interpreted = Options {
        jit: false,
        ..options()
    };
    for script in scripts_in(&repo_root().join("tests/cases/run/ok")) {
        check_against(&script, &script.with_extension("out"), &interpreted, 2);
    }
}

/// Issue 17's example: `1.7e9 + rand` in ten chunks, whose `var` was off by 7.5e-10
/// relative while per-chunk means were merged (Chan et al.). Every chunking, with and
/// without the JIT, must give the single-chunk values (NumPy's own two passes over the
/// same numbers). Not quite to the contract's 1e-12: a chunked sum may round the mean
/// (1.7e9, ulp 2.4e-7) one ulp away from the single pairwise sum, which NumPy's
/// algorithm turns into `n · ulp²` more squared deviation, 1.2e-12 relative with ten
/// chunks here; subtracting `(Σ(x - mean))² / n` would cancel it but would also cancel
/// NumPy's own rounding, 6e-11 away from NumPy on `1e10 + [0.1, 0.2, 0.3]`.
#[test]
fn var_of_data_far_from_zero_does_not_depend_on_chunking() {
    let script = |chunks: &str| {
        format!(
            "import mars.tensor as mt\n\
             t = 1.7e9 + mt.random.rand(1000000, chunks={chunks})\n\
             print(t.var(), t.std(ddof=1), t.reshape(1000, 1000).var(axis=0)[:2])\n"
        )
    };
    let whole = output_of(&script("1000000"), &options(), 1);
    let interpreted = Options {
        jit: false,
        ..options()
    };
    for chunks in ["100000", "77777", "1000"] {
        for options in [&options(), &interpreted] {
            let chunked = output_of(&script(chunks), options, 2);
            if let Err(message) = compare_output(&chunked, &whole, 2e-12) {
                panic!("chunks={chunks}, jit={}: {message}", options.jit);
            }
        }
    }
}

#[test]
fn run_errors_name_the_expression() {
    insta::glob!("cases/run/err/*.mt", |path| {
        let text = read(path);
        let failed = |workers| match run_script_printing(&text, &options(), workers) {
            (output, Ok(_)) => panic!("{} should fail but printed:\n{output}", path.display()),
            (output, Err(error)) => format!("--- stdout\n{output}--- stderr\n{error}"),
        };
        let report = failed(1);
        assert_eq!(failed(3), report, "{} with 3 workers", path.display());
        // Paths are resolved against the repository root, which differs per machine.
        let root = repo_root().display().to_string();
        insta::assert_snapshot!(report.replace(&root, "<repo>"));
    });
}

/// Without fusion, with subtasks pinned to worker `chunk index mod 2`:
/// - `a.sum()` over two arange chunks: 2 arange + 2 map + 1 combine + 1 finish
///   subtasks; the combine (chunk 0, worker 0) fetches the map state of chunk 1
///   from worker 1: one int64 partial sum, 8 bytes.
/// - `b + b.T` over 2x2 chunks of 2x2 float64: 4 ones + 4 transposes + 4 adds; the
///   transpose chunks at grid (0, 1) and (1, 0) (indices 1 and 2, workers 1 and 0)
///   read the ones chunks at (1, 0) and (0, 1) (indices 2 and 1, workers 0 and 1):
///   two transfers of 32 bytes. The adds read chunks of their own index.
#[test]
fn stats_json_figures_worked_out_by_hand() {
    let script = "import mars.tensor as mt\n\
                  a = mt.arange(8, chunks=4)\n\
                  print(a.sum())\n\
                  b = mt.ones((4, 4), chunks=2)\n\
                  print(b + b.T)\n";
    let pinned = Options {
        placement: Placement::ChunkIndex,
        fusion: Fusion::Off,
        ..options()
    };
    // The workers' own figures: no plan runs on the caller's thread.
    let run_options = marsc::run::RunOptions {
        workers: 2,
        inline_small: false,
        ..marsc::run::RunOptions::default()
    };
    let mut out = Vec::new();
    let stats = marsc::job::run(script, &pinned, &run_options, &mut out).expect("runs");
    let output = String::from_utf8(out).expect("utf-8 output");
    assert_eq!(
        output,
        "28\n[[2. 2. 2. 2.]\n [2. 2. 2. 2.]\n [2. 2. 2. 2.]\n [2. 2. 2. 2.]]\n"
    );
    let json = stats.to_json();
    assert_eq!(json["subtasks"], 18);
    assert_eq!(json["chunks"], 18);
    assert_eq!(json["workers"], 2);
    assert_eq!(json["transfer_bytes"], 8 + 2 * 32);
    assert_eq!(json["subtasks_per_worker"], serde_json::json!([10, 8]));
    // JIT kernels: the int64 sum's map chunks and the float64 add share one each; the
    // lone creation ops, the transpose and the reduction tree stay interpreted.
    assert_eq!(json["kernels"], 2);
    assert_eq!(json["spilled_bytes"], 0);
    assert_eq!(json["retries"], 0);
}

#[test]
fn stats_json_has_every_contract_field() {
    let (_, stats) = run_script(
        "import mars.tensor as mt\nprint(mt.ones(3).sum())\n",
        &options(),
        1,
    )
    .expect("runs");
    let json = stats.to_json();
    for field in [
        "tileables",
        "chunks",
        "subtasks",
        "kernels",
        "workers",
        "compile_seconds",
        "jit_seconds",
        "run_seconds",
        "transfer_bytes",
        "peak_live_chunks",
        "peak_live_bytes",
        "spilled_bytes",
        "retries",
        "subtasks_per_worker",
    ] {
        assert!(json.get(field).is_some(), "missing {field}");
    }
    assert_eq!(json["workers"], 1);
    assert_eq!(json["transfer_bytes"], 0, "one worker never transfers");
}
