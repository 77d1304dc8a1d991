//! Recovery on real programs: every example prints the right output with injected
//! subtask failures (`--inject-faults`) and with a worker dropped part-way
//! (`--kill-worker`), through the driver as the CLI runs it. "Right" means the same
//! bytes as a plain run (results never depend on scheduling) and, where
//! `tests/expected/NAME.out` exists, NumPy's output within the CLI contract's
//! tolerance. A failure retrying cannot fix (a loaded file deleted after compiling)
//! stops the job with a diagnostic naming the statement.

use marsc::diagnostics::{render_plain, SourceFile};
use marsc::driver::{self, Options};
use marsc::job::{self, JobError};
use marsc::run::{RunOptions, RunStats};
use std::path::{Path, PathBuf};

/// The CLI contract's relative tolerance for float64 results, and for float32 ones.
const FLOAT64_TOLERANCE: f64 = 1e-12;
const FLOAT32_TOLERANCE: f64 = 1e-5;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the compiler crate lives in the repository")
        .to_path_buf()
}

/// `(name, script text)` of every example.
fn examples() -> Vec<(String, String)> {
    let dir = repo_root().join("examples");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("list examples")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mt"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 15, "only {} examples", scripts.len());
    scripts
        .iter()
        .map(|path| {
            let name = path.file_stem().expect("file name").to_string_lossy();
            let text = std::fs::read_to_string(path).expect("read example");
            (name.into_owned(), text)
        })
        .collect()
}

fn run(text: &str, run_options: &RunOptions) -> Result<(String, RunStats), JobError> {
    let options = Options {
        base_dir: repo_root(),
        ..Options::default()
    };
    let mut out = Vec::new();
    let stats = job::run(text, &options, run_options, &mut out)?;
    Ok((String::from_utf8(out).expect("utf-8 output"), stats))
}

fn two_workers() -> RunOptions {
    RunOptions {
        workers: 2,
        ..RunOptions::default()
    }
}

fn numbers_agree(ours: &str, theirs: &str, tolerance: f64) -> bool {
    match (ours.parse::<f64>(), theirs.parse::<f64>()) {
        (Ok(x), Ok(y)) => x == y || (x - y).abs() <= tolerance * x.abs().max(y.abs()),
        _ => ours == theirs,
    }
}

/// Printed output equal to NumPy's but for numbers within `tolerance` (a number
/// printed with one more digit may widen NumPy's columns, so spacing is ignored).
fn agrees_with_numpy(ours: &str, theirs: &str, tolerance: f64) -> bool {
    let words = |text: &str| -> Vec<String> {
        text.replace(['[', ']', '(', ')', ','], " ")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let (ours_words, theirs_words) = (words(ours), words(theirs));
    ours.lines().count() == theirs.lines().count()
        && ours_words.len() == theirs_words.len()
        && ours_words
            .iter()
            .zip(&theirs_words)
            .all(|(a, b)| numbers_agree(a, b, tolerance))
}

/// Runs every example plainly and with `variant`, checking the outputs; returns the
/// variant runs' figures added up.
fn check_every_example(what: &str, variant: &RunOptions) -> RunStats {
    let mut total = RunStats::default();
    for (name, text) in examples() {
        let (plain, _) = run(&text, &two_workers())
            .unwrap_or_else(|error| panic!("{name} fails plainly: {error:?}"));
        let (output, stats) = run(&text, variant)
            .unwrap_or_else(|error| panic!("{name} fails with {what}: {error:?}"));
        assert_eq!(output, plain, "{name} with {what}");
        let expected = repo_root().join(format!("tests/expected/{name}.out"));
        if let Ok(numpy) = std::fs::read_to_string(&expected) {
            let tolerance = if text.contains("float32") {
                FLOAT32_TOLERANCE
            } else {
                FLOAT64_TOLERANCE
            };
            assert!(
                agrees_with_numpy(&output, &numpy, tolerance),
                "{name} with {what}:\n--- marsc ---\n{output}--- numpy ---\n{numpy}"
            );
        }
        total.subtasks += stats.subtasks;
        total.exec.retries += stats.exec.retries;
        total.exec.recomputed += stats.exec.recomputed;
    }
    total
}

#[test]
fn the_comparison_with_numpy_tolerates_rounding_only() {
    assert!(agrees_with_numpy(
        "x 0.30000000000000004\n",
        "x 0.3\n",
        1e-12
    ));
    assert!(agrees_with_numpy("[1.  2.5]\n", "[1.   2.5]\n", 0.0));
    assert!(!agrees_with_numpy("x 0.31\n", "x 0.3\n", 1e-12));
    assert!(!agrees_with_numpy("float64 3\n", "float32 3\n", 1e-12));
    assert!(!agrees_with_numpy("[1 2]\n", "[1 2 3]\n", 1e-12));
    assert!(!agrees_with_numpy("a\nb\n", "a b\n", 1e-12));
}

#[test]
fn every_example_survives_injected_faults() {
    for seed in [0, 7] {
        let faulty = RunOptions {
            inject_faults: Some((0.05, seed)),
            ..two_workers()
        };
        let total = check_every_example(&format!("--inject-faults 0.05,{seed}"), &faulty);
        // About one attempt in twenty fails; with hundreds of subtasks some must.
        assert!(
            total.exec.retries * 100 >= total.subtasks,
            "{} retries over {} subtasks",
            total.exec.retries,
            total.subtasks
        );
    }
}

#[test]
fn every_example_survives_a_lost_worker() {
    let mut recomputed = 0;
    for (workers, worker, fraction) in [(2, 1, 0.5), (2, 0, 0.2), (3, 2, 0.8)] {
        let killing = RunOptions {
            workers,
            kill_worker: Some((worker, fraction)),
            ..RunOptions::default()
        };
        let what = format!("--workers {workers} --kill-worker {worker}@{fraction}");
        recomputed += check_every_example(&what, &killing).exec.recomputed;
    }
    assert!(recomputed > 0, "no lost chunk was ever recomputed");
}

#[test]
fn faults_and_a_lost_worker_together_keep_the_output() {
    let both = RunOptions {
        inject_faults: Some((0.05, 3)),
        kill_worker: Some((1, 0.5)),
        ..two_workers()
    };
    check_every_example("--inject-faults 0.05,3 --kill-worker 1@0.5", &both);
}

#[test]
fn a_loaded_file_deleted_after_compiling_stops_the_job_naming_the_statement() {
    let dir = tempfile::tempdir().expect("temp dir");
    let options = Options {
        base_dir: dir.path().to_path_buf(),
        ..Options::default()
    };
    let make = "import mars.tensor as mt\nmt.save(\"input.npy\", mt.arange(8.0))\n";
    job::run(make, &options, &two_workers(), &mut Vec::new()).expect("make input.npy");
    let text = "import mars.tensor as mt\n\
                x = mt.load(\"input.npy\", chunks=2)\n\
                print((x * 2).sum())\n";
    // The header is read at compile time, so the file must go between compile and run.
    let compiled = driver::compile(text, &options).expect("compiles");
    std::fs::remove_file(dir.path().join("input.npy")).expect("delete input.npy");
    let mut out = Vec::new();
    let error =
        job::run_compiled(&compiled, &two_workers(), &mut out).expect_err("the input is gone");
    let JobError::RunFailed(diagnostic) = error else {
        panic!("not a diagnostic: {error:?}");
    };
    let source = SourceFile {
        name: "script.mt",
        text,
    };
    let rendered = render_plain(&source, &[*diagnostic]);
    assert!(rendered.contains("input.npy"), "{rendered}");
    assert!(rendered.contains("script.mt:2:"), "{rendered}");
    assert!(rendered.contains("mt.load(\"input.npy\""), "{rendered}");
    assert!(out.is_empty(), "printed after a failure");
}
