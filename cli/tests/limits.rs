//! End-to-end tests of the limits that keep a user's script from blowing up marsc:
//! long element-wise chains compile into bounded kernels, graphs too big to plan are
//! refused by `check`, outputs that cannot fit are refused before a run starts, and a
//! chunk that cannot be allocated fails the run with an error instead of aborting.

mod support;

use std::process::Command;
use std::time::Duration;
use support::{marsc_within, script};

fn stats_number(json: &str, key: &str) -> u64 {
    let value: serde_json::Value = serde_json::from_str(json).expect("stats JSON");
    value[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no {key} in {json}"))
}

#[test]
fn a_long_chain_compiles_into_a_few_bounded_kernels() {
    // 3,000 links on one chunk: before the fix, one subtask and one kernel of 6,000
    // nodes whose build was quadratic in the chain.
    let text = format!(
        "import mars.tensor as mt\na = mt.ones(10)\n{}print(a.sum())\n",
        "a = a + 1\n".repeat(3000)
    );
    let file = script(&text);
    let stats = tempfile::NamedTempFile::new().expect("stats file");
    let path = file.path().to_str().expect("utf-8 path");
    let stats_path = stats.path().to_str().expect("utf-8 path");
    let out = marsc_within(&["--stats-json", stats_path, path], Duration::from_secs(60));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "30010.0\n");
    let json = std::fs::read_to_string(stats.path()).expect("stats written");
    // 6,001 chunk ops (ones, then a scalar and an add per link) plus the sum, in
    // groups of at most 256.
    assert!(stats_number(&json, "subtasks") >= 6003 / 256, "{json}");
    // The groups of a chain are alike: a handful of kernels serve them all.
    assert!(stats_number(&json, "kernels") <= 4, "{json}");
}

#[test]
#[ignore = "a 50,000-line chain: about 10 s in a debug build"]
fn a_fifty_thousand_line_chain_runs() {
    let text = format!(
        "import mars.tensor as mt\na = mt.ones(10, chunks=5)\n{}print(a.sum())\n",
        "a = a + 1\n".repeat(50_000)
    );
    let file = script(&text);
    let path = file.path().to_str().expect("utf-8 path");
    let out = marsc_within(&[path], Duration::from_secs(60));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "500010.0\n");
}

#[test]
fn check_refuses_a_matmul_of_a_billion_block_products_quickly() {
    let file = script(
        "import mars.tensor as mt\nx = mt.ones((10000, 10000), chunks=10)\nprint((x @ x)[0, 0])\n",
    );
    let path = file.path().to_str().expect("utf-8 path");
    for args in [vec!["check", path], vec![path]] {
        let out = marsc_within(&args, Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("chunk operations"), "{stderr}");
        assert!(stderr.contains(":3:8"), "{stderr}");
        assert!(stderr.contains("help: use bigger chunks"), "{stderr}");
    }
}

#[test]
fn a_save_bigger_than_the_disk_is_refused_before_running() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = script(
        "import mars.tensor as mt\nprint(\"start\")\nmt.save(\"huge.npy\", mt.ones((10**7, 10**6)))\n",
    );
    let copy = dir.path().join("script.mt");
    std::fs::copy(file.path(), &copy).expect("script copied");
    let out = marsc_within(
        &[copy.to_str().expect("utf-8 path")],
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bytes free"), "{stderr}");
    assert!(stderr.contains(":3:1"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|entry| entry.expect("entry").file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("script.mt")]);
}

#[test]
fn printing_a_tensor_bigger_than_memory_prints_its_summary() {
    // 80 TB: NumPy would print only its corners, and so marsc computes only those.
    let file = script("import mars.tensor as mt\nprint(mt.ones((10**7, 10**6)))\n");
    let path = file.path().to_str().expect("utf-8 path");
    let out = marsc_within(&[path], Duration::from_secs(20));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("[[1. 1. 1. ... 1. 1. 1.]\n [1. 1. 1. ... 1. 1. 1.]\n"),
        "{stdout}"
    );
    assert!(stdout.contains(" ...\n"), "{stdout}");
}

#[test]
fn a_chunk_that_cannot_be_allocated_fails_the_run_cleanly() {
    // One 4.8 GB chunk under a 3 GiB address-space limit: the JIT's output buffer for
    // `x + 1` cannot be had. Before, Rust's allocation-failure handler aborted.
    let file = script(
        "import mars.tensor as mt\nx = mt.ones(600000000, chunks=-1)\nprint(mt.cumsum(x + 1)[-1])\n",
    );
    let path = file.path().to_str().expect("utf-8 path");
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3145728 && exec \"$0\" --workers 1 \"$1\"")
        .arg(env!("CARGO_BIN_EXE_marsc"))
        .arg(path)
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("out of memory"), "{stderr}");
    assert!(stderr.contains("x + 1"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn creation_chunks_that_cannot_be_allocated_fail_the_run_cleanly() {
    // One 80 GB chunk of each creation kernel under a 3 GiB address-space limit;
    // `arange`, `linspace` and the random kernels used to abort in `collect`.
    for creation in [
        "mt.arange(10**10, chunks=10**10)",
        "mt.linspace(0, 1, 10**10, chunks=10**10)",
        "mt.random.rand(10**5, 10**5, chunks=10**5)",
        "mt.random.exponential(size=10**10, chunks=10**10)",
        "mt.ones(10**10, chunks=10**10)",
    ] {
        let file = script(&format!(
            "import mars.tensor as mt\nx = {creation}\nprint(x[:3])\n"
        ));
        let path = file.path().to_str().expect("utf-8 path");
        for jit in ["", "--no-jit"] {
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!(
                    "ulimit -v 3145728 && exec \"$0\" --workers 1 {jit} \"$1\""
                ))
                .arg(env!("CARGO_BIN_EXE_marsc"))
                .arg(path)
                .output()
                .expect("sh runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{creation} {jit}: {stderr}");
            assert!(stderr.contains("out of memory"), "{creation}: {stderr}");
            assert!(stderr.contains("x[:3]"), "{creation}: {stderr}");
        }
    }
}
