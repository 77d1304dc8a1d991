//! What the `marsc` binary prints around failures and for big tensors: a failed run
//! prints, as Python does, the outputs that precede the failing statement before its
//! error; a tensor NumPy summarizes is printed from its corners alone, so printing
//! `mt.ones(10**10)` computes two chunks, stays within `--memory-limit`, and the
//! `--stats-json` peak counts what printing holds.

use std::io::Write;
use std::process::{Command, Output};

fn marsc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .output()
        .expect("marsc runs")
}

fn script(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(".mt")
        .tempfile()
        .expect("temp file");
    file.write_all(text.as_bytes()).expect("write script");
    file
}

fn path(file: &tempfile::NamedTempFile) -> &str {
    file.path().to_str().expect("utf-8 temp path")
}

fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

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

#[test]
fn the_repl_shows_big_tensors_as_numpy_s_repr() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(["repl", "--workers", "2"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(
            b"x = mt.ones(10**10)\nx\nmt.arange(2002, chunks=100).reshape((2, 1001))\n\
              mt.arange(3000, chunks=7).reshape((3, 1000)) / 7\nprint(x)\n",
        )
        .expect("marsc reads its input");
    let out = child.wait_with_output().expect("marsc finishes");
    assert!(out.status.success(), "{}", stderr_of(&out));
    // repr(np.broadcast_to(1.0, 10**10)) (the same text as np.ones(10**10)'s), then
    // repr(np.arange(2002).reshape((2, 1001))), repr(np.arange(3000).reshape(3, 1000) / 7)
    // and print(x), with NumPy 2.4.
    assert_eq!(
        stdout_of(&out),
        "array([1., 1., 1., ..., 1., 1., 1.], shape=(10000000000,))\n\
         array([[   0,    1,    2, ...,  998,  999, 1000],\n       \
         [1001, 1002, 1003, ..., 1999, 2000, 2001]], shape=(2, 1001))\n\
         array([[0.00000000e+00, 1.42857143e-01, 2.85714286e-01, ...,\n        \
         1.42428571e+02, 1.42571429e+02, 1.42714286e+02],\n       \
         [1.42857143e+02, 1.43000000e+02, 1.43142857e+02, ...,\n        \
         2.85285714e+02, 2.85428571e+02, 2.85571429e+02],\n       \
         [2.85714286e+02, 2.85857143e+02, 2.86000000e+02, ...,\n        \
         4.28142857e+02, 4.28285714e+02, 4.28428571e+02]], shape=(3, 1000))\n\
         [1. 1. 1. ... 1. 1. 1.]\n"
    );
}
