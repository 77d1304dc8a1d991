//! End-to-end tests of `marsc simulate`: the table, `--json`, the seed's BFS moving
//! no more bytes than round-robin on an unfused `(a * 2 + b).sum()` (where walking
//! through the broadcast `2` used to move every `b` chunk), and the exit statuses
//! (1 a script error, 2 bad usage with a clear message).

mod support;

use std::process::Output;
use support::{marsc, script};

/// `(a * 2 + b).sum()` over 64 + 64 rows of 8 kB.
const REDUCTION: &str = "\
import mars.tensor as mt
a = mt.random.rand(64, 1024, chunks=(1, 1024))
b = mt.random.rand(64, 1024, chunks=(1, 1024))
print((a * 2 + b).sum())
";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn simulate(args: &[&str], text: &str) -> Output {
    let file = script(text);
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    all.push(file.path().to_str().unwrap());
    marsc(&all)
}

#[test]
fn prints_one_row_per_policy() {
    let out = simulate(&["--workers", "8"], REDUCTION);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("subtasks on 8 simulated workers"), "{text}");
    assert!(
        text.contains("model: links 10.0 GB/s each way, latency 50.0 µs"),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert!(
        rows[0].starts_with("assign") && rows[0].contains("makespan"),
        "{text}"
    );
    for (row, policy) in rows[1..].iter().zip(["bfs", "round-robin", "random"]) {
        assert!(row.starts_with(policy), "{text}");
    }
    assert_eq!(rows.len(), 4, "{text}");
    let one = simulate(&["--workers", "8", "--assign", "random"], REDUCTION);
    assert_eq!(stdout(&one).lines().count(), 4);
}

fn runs(out: &Output) -> Vec<serde_json::Value> {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let json: serde_json::Value = serde_json::from_str(&stdout(out)).expect("valid JSON");
    json["runs"].as_array().expect("runs").clone()
}

#[test]
fn json_has_the_figures_of_each_run() {
    let out = simulate(
        &[
            "--workers",
            "4",
            "--json",
            "--bandwidth",
            "1Gb/s",
            "--latency",
            "0",
        ],
        REDUCTION,
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["workers"], 4);
    assert_eq!(json["bandwidth_bytes_per_second"], 125e6);
    assert_eq!(json["latency_seconds"], 0.0);
    let runs = runs(&out);
    assert_eq!(runs.len(), 3);
    for run in &runs {
        assert!(run["makespan_seconds"].as_f64().unwrap() > 0.0, "{run}");
        assert!(run["peak_memory_bytes_max"].as_u64().unwrap() > 0, "{run}");
        assert!(run["subtasks"].as_u64().unwrap() > 0, "{run}");
        let share = run["coordinator_busy_share"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&share), "{run}");
    }
}

#[test]
fn bfs_moves_no_more_than_round_robin_on_an_unfused_reduction() {
    for workers in ["4", "16"] {
        let out = simulate(&["--workers", workers, "--no-fuse", "--json"], REDUCTION);
        let runs = runs(&out);
        let moved = |policy: &str| {
            runs.iter()
                .find(|run| run["assign"] == policy)
                .and_then(|run| run["transfer_bytes"].as_u64())
                .unwrap()
        };
        assert!(
            moved("bfs") <= moved("round-robin"),
            "{workers} workers: bfs {} round-robin {}",
            moved("bfs"),
            moved("round-robin")
        );
        // Random splits most a_i, b_i pairs: far more than either.
        assert!(moved("random") > 10 * moved("bfs").max(8192), "{runs:?}");
    }
}

#[test]
fn bad_flags_exit_2_with_a_clear_message() {
    for (args, message) in [
        (&["--bandwidth", "fast"][..], "`fast` is not a data rate"),
        (&["--bandwidth", "0GB/s"], "must be above zero"),
        (
            &["--latency", "50"],
            "`50` is not a duration; write e.g. 50us",
        ),
        (&["--compute-rate", "3GB/h"], "not a data rate"),
        (&["--flop-rate", "9GB/s"], "not a compute rate"),
        (&["--workers", "0"], "0 is not in 1..=1000000"),
        (&["--assign", "nearest"], "invalid value 'nearest'"),
    ] {
        let out = simulate(args, REDUCTION);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_script_error_is_the_usual_diagnostic_with_exit_1() {
    let out = simulate(
        &[],
        "import mars.tensor as mt\nprint(mt.ones(3) + mt.ones(4))\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("could not compile"),
        "{}",
        stderr(&out)
    );
    let missing = marsc(&["simulate", "/nonexistent/x.mt"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("cannot read /nonexistent/x.mt"));
}

#[test]
fn a_script_in_stages_is_not_supported_yet() {
    let text = "import mars.tensor as mt\nx = mt.arange(10)\nprint(x[x > x.mean()])\n";
    let out = simulate(&[], text);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not supported yet"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn help_explains_the_flags_and_the_model() {
    let out = marsc(&["simulate", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for flag in [
        "--workers",
        "--bandwidth",
        "--latency",
        "--assign",
        "--compute-rate",
        "--flop-rate",
        "--coordinator-cost",
        "--queue-depth",
        "--chunk-bytes",
        "--no-fuse",
        "--json",
    ] {
        assert!(text.contains(flag), "{flag} missing from:\n{text}");
    }
    for assumption in [
        "one port each way",
        "Not modelled",
        "--coordinator-cost per subtask",
    ] {
        assert!(
            text.contains(assumption),
            "{assumption} missing from:\n{text}"
        );
    }
}
