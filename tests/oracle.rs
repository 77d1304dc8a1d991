//! The NumPy oracle (`tests/numpy_oracle.py`) itself, run for real:
//! - for every `tests/cases/run/ok/*.mt` and every example it can check, it prints
//!   the checked-in expected output (`NAME.out` beside the case,
//!   `tests/expected/NAME.out` for an example), numbers within the contract's
//!   tolerance, so those files are what Python + NumPy print today; an example it
//!   refuses (exit 3: random numbers, `.nsplits`) has no expected file;
//! - it keeps Python's meaning of builtins and of `+=` (the scripts of issue 16).
//!
//! python3 with NumPy is required: without it these tests fail, unless
//! `MARSC_SKIP_NUMPY=1` is set.

mod run_support;

use marsc_tests::repo_root;
use run_support::{compare_output, scripts_in, tolerance_for};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether to run the oracle: always, unless `MARSC_SKIP_NUMPY=1`; a machine without
/// python3 and NumPy fails here rather than skipping quietly.
fn numpy_required() -> bool {
    if std::env::var("MARSC_SKIP_NUMPY").is_ok_and(|v| v == "1") {
        eprintln!("skipped: MARSC_SKIP_NUMPY=1");
        return false;
    }
    let found = Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "python3 with NumPy is required (pip install numpy), or set MARSC_SKIP_NUMPY=1"
    );
    true
}

/// The Python that runs the oracle on `script`: python3, or for a script using Zarr
/// the test environment with zarr-python (`None`, said loudly, where it cannot be
/// made).
fn interpreter(script: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(script).expect("script is readable");
    if text.contains("zarr") {
        marsc_tests::python_env::zarr_python_or_skip(&script.display().to_string())
    } else {
        Some(PathBuf::from("python3"))
    }
}

/// The oracle's exit status and output for a script, run from the repository root
/// (scripts name their data files relative to it).
fn oracle(script: &Path) -> (i32, String, String) {
    let root = repo_root();
    // `files.mt` saves into target/, which a fresh checkout may not have yet.
    std::fs::create_dir_all(root.join("target")).expect("target/ can be created");
    let Some(python) = interpreter(script) else {
        // Skipped loudly by `interpreter`: the caller sees a script it cannot check.
        return (3, String::new(), "no zarr-python".into());
    };
    let output = Command::new(python)
        .arg(root.join("tests/numpy_oracle.py"))
        .arg(script)
        .current_dir(&root)
        .output()
        .expect("python3 runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("utf-8 output"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn check_expected(script: &Path, expected: &Path) {
    let (status, output, stderr) = oracle(script);
    if status == 3 && stderr == "no zarr-python" {
        return;
    }
    assert_eq!(
        status,
        0,
        "{}: the oracle failed:\n{stderr}",
        script.display()
    );
    let text = std::fs::read_to_string(script).expect("script is readable");
    let want = std::fs::read_to_string(expected).expect("expected output is readable");
    if let Err(message) = compare_output(&output, &want, tolerance_for(&text)) {
        panic!(
            "{}: the oracle no longer prints {}: {message}",
            script.display(),
            expected.display()
        );
    }
}

#[test]
fn run_cases_outputs_are_what_numpy_prints() {
    if !numpy_required() {
        return;
    }
    let scripts = scripts_in(&repo_root().join("tests/cases/run/ok"));
    assert!(scripts.len() >= 10);
    for script in scripts {
        check_expected(&script, &script.with_extension("out"));
    }
}

#[test]
fn examples_outputs_are_what_numpy_prints() {
    if !numpy_required() {
        return;
    }
    let root = repo_root();
    let mut checked = 0;
    for script in scripts_in(&root.join("examples")) {
        let name = script.file_stem().expect("file name").to_string_lossy();
        let expected = root.join("tests/expected").join(format!("{name}.out"));
        if expected.exists() {
            check_expected(&script, &expected);
            checked += 1;
        } else {
            let (status, _, stderr) = oracle(&script);
            assert_eq!(
                status, 3,
                "{name}: the oracle can check it, so tests/expected/{name}.out must exist \
                 ({stderr})"
            );
        }
    }
    assert!(checked >= 12, "only {checked} examples checked");
}

/// Issue 16's scripts: Python's `max`, `sum` and `abs`, and NumPy's in-place `+=`
/// (the old oracle printed `-5`, `6.0` and `0.5`).
#[test]
fn builtins_and_in_place_updates_keep_python_meaning() {
    if !numpy_required() {
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let script = dir.path().join("issue16.mt");
    std::fs::write(
        &script,
        "import mars.tensor as mt\n\
         returns = mt.arange(5)\n\
         print(max(len(returns) - 10, 0))\n\
         print(sum(mt.ones((2, 3), chunks=1)))\n\
         x = mt.ones(3) * 2\n\
         x_prev = x\n\
         x += mt.full(3, 0.5)\n\
         print(abs(x - x_prev).max().execute())\n\
         print(round(2.5), pow(2, 10), all([1, 0]), sqrt(4.0))\n",
    )
    .expect("script written");
    let (status, output, stderr) = oracle(&script);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(output, "0\n[2. 2. 2.]\n0.0\n2 1024 False 2.0\n");
}

#[test]
fn scripts_with_random_numbers_are_refused() {
    if !numpy_required() {
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let script = dir.path().join("random.mt");
    std::fs::write(
        &script,
        "import mars.tensor as mt\nprint(mt.random.rand(3).sum())\n",
    )
    .expect("script written");
    let (status, output, _) = oracle(&script);
    assert_eq!((status, output.as_str()), (3, ""));
}
