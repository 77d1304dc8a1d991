//! What the `marsc` binary prints around failures and for big tensors: a failed run
//! prints, as Python does, the outputs that precede the failing statement before its
//! error; a tensor NumPy summarizes is printed from its corners alone, so printing
//! `mt.ones(10**10)` computes two chunks, stays within `--memory-limit`, and the
//! `--stats-json` peak counts what printing holds.

mod support;

use std::process::Output;
use support::{marsc, path, script, stderr_of, stdout_of};

/// Runs `text` with `--stats-json`; returns the output and the figures.
fn run_with_stats(text: &str, extra: &[&str]) -> (Output, serde_json::Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    let json_path = dir.path().join("stats.json");
    let file = script(text);
    let mut args = vec![
        "--quiet",
        "--stats-json",
        json_path.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    args.push(path(&file));
    let out = marsc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let json = std::fs::read_to_string(&json_path).expect("stats file");
    (out, serde_json::from_str(&json).expect("valid JSON"))
}

#[test]
fn a_failed_save_comes_after_the_output_that_precedes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("missing").join("x.npy");
    let text = format!(
        "import mars.tensor as mt\nprint(\"start\")\nx = mt.arange(10, chunks=3)\n\
         print(x.sum())\nmt.save({:?}, x)\nprint(\"after\")\n",
        target.display().to_string()
    );
    let file = script(&text);
    for workers in ["1", "2"] {
        let out = marsc(&["--workers", workers, "--quiet", path(&file)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
        // python3 -c 'import numpy as np; print("start"); x = np.arange(10); print(x.sum());
        //             np.save(MISSING, x)' prints these two lines, then raises.
        assert_eq!(stdout_of(&out), "start\n45\n");
        let stderr = stderr_of(&out);
        assert!(stderr.contains("x.npy': No such file"), "{stderr}");
        assert!(stderr.contains(":5:1"), "{stderr}");
    }
    assert!(!target.exists());
}

#[test]
fn a_giant_tensor_prints_summarized_from_two_chunks() {
    // python3 -c 'import numpy as np; print(np.ones(10**10))' would need 80 GB;
    // its text is NumPy's summary of any array of ones.
    let (out, stats) = run_with_stats(
        "import mars.tensor as mt\nprint(mt.ones(10**10))\n",
        &["--workers", "2"],
    );
    assert_eq!(stdout_of(&out), "[1. 1. 1. ... 1. 1. 1.]\n");
    // The first and last chunk of the tensor, then the corners.
    assert!(stats["subtasks"].as_u64() <= Some(3), "{stats}");
    assert!(stats["peak_live_bytes"].as_u64() < Some(1 << 30), "{stats}");
}

#[test]
fn printing_a_big_tensor_stays_within_the_memory_limit() {
    let limit: u64 = 512 << 20;
    let (out, stats) = run_with_stats(
        "import mars.tensor as mt\nprint(mt.ones(200000000))\n",
        &["--memory-limit", "512MiB", "--workers", "2"],
    );
    assert_eq!(stdout_of(&out), "[1. 1. 1. ... 1. 1. 1.]\n");
    let peak = stats["peak_live_bytes"].as_u64().expect("a peak");
    // Automatic chunks of 1.6 GB: 16 of 100 MB; the two edge ones are held together.
    assert!(peak >= 2 * 100_000_000, "{stats}");
    assert!(peak <= limit, "{stats}");
    assert!(stats["subtasks"].as_u64() <= Some(3), "{stats}");
}
