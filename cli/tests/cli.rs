//! End-to-end tests of the `marsc` binary: exit statuses of the CLI contract
//! (0 success, 1 script error, 2 bad usage), help texts, `--format dot` dumps
//! that Graphviz accepts, and runs: printed output, run-time errors, saves,
//! `--stats`, `--stats-json` and `--trace`.

mod support;

use std::io::Write;
use std::process::Command;
use support::{marsc, path, script, stderr_of};

#[test]
fn check_accepts_a_good_script() {
    let file =
        script("import mars.tensor as mt\nx = mt.ones((4, 4), chunks=2)\nprint((x + 1).sum())\n");
    let out = marsc(&["check", path(&file)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn check_rejects_a_bad_script_with_a_located_diagnostic() {
    let file = script("x = ones(3)\ny = x + undefined_name\n");
    let out = marsc(&["check", path(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error: "), "{stderr}");
    assert!(stderr.contains(":2:9"), "{stderr}");
}

#[test]
fn syntax_errors_are_all_reported() {
    let file = script("x = (1 +\ny = ]\nz = 1 +* 2\n");
    let out = marsc(&["check", path(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.matches("error: ").count() >= 3, "{stderr}");
}

#[test]
fn missing_script_is_an_error_not_a_panic() {
    let out = marsc(&["check", "/nonexistent/script.mt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(marsc(&["--no-such-flag"]).status.code(), Some(2));
    assert_eq!(
        marsc(&["--emit", "nonsense", "x.mt"]).status.code(),
        Some(2)
    );
    assert_eq!(
        marsc(&["--chunk-bytes", "12 parsecs", "x.mt"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(marsc(&["--workers", "0", "x.mt"]).status.code(), Some(2));
}

#[test]
fn help_explains_commands_and_options() {
    let out = marsc(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for word in [
        "check",
        "repl",
        "order",
        "--emit",
        "--chunk-bytes",
        "--workers",
        "--stats-json",
    ] {
        assert!(text.contains(word), "--help lacks {word}:\n{text}");
    }
}

#[test]
fn emit_dumps_are_deterministic() {
    let file = script("a = arange(10, chunks=3)\nb = a * 2.5\nprint(b[::-2].sum(), b.shape)\n");
    for stage in ["ast", "tileable", "chunk", "subtask", "all"] {
        let first = marsc(&["--emit", stage, path(&file)]);
        let second = marsc(&["--emit", stage, path(&file)]);
        assert_eq!(
            first.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&first.stderr)
        );
        assert!(!first.stdout.is_empty());
        assert_eq!(first.stdout, second.stdout);
    }
}

#[test]
fn dot_output_renders_with_graphviz() {
    if Command::new("dot").arg("-V").output().is_err() {
        // .ci/run installs Graphviz; a developer machine without it skips this check.
        eprintln!("skipping: Graphviz `dot` is not installed");
        return;
    }
    let file = script("x = ones((6, 6), chunks=3)\ny = (x @ x.T).sum(axis=0)\nprint(y)\n");
    for stage in ["ast", "tileable", "chunk", "subtask"] {
        let out = marsc(&["--emit", stage, "--format", "dot", path(&file)]);
        assert_eq!(out.status.code(), Some(0));
        let mut dot = Command::new("dot")
            .arg("-Tsvg")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("dot starts");
        dot.stdin
            .take()
            .expect("stdin")
            .write_all(&out.stdout)
            .expect("feed dot");
        let rendered = dot.wait_with_output().expect("dot finishes");
        assert!(
            rendered.status.success(),
            "{}",
            String::from_utf8_lossy(&rendered.stderr)
        );
        assert!(String::from_utf8_lossy(&rendered.stdout).contains("<svg"));
    }
}

#[test]
fn running_a_script_prints_numpys_answer() {
    let file = script(
        "import mars.tensor as mt\nx = mt.arange(12, chunks=5).reshape(3, 4)\n\
         print(x.sum(axis=0), x.mean())\nprint((x > 5).sum(), 'done', sep=', ')\n",
    );
    for workers in ["1", "3"] {
        let out = marsc(&["--workers", workers, "--quiet", path(&file)]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
        // NumPy: print(x.sum(axis=0), x.mean()); print((x > 5).sum(), 'done', sep=', ')
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "[12 15 18 21] 5.5\n6, done\n"
        );
        assert!(out.stderr.is_empty(), "{}", stderr_of(&out));
    }
}

#[test]
fn a_run_time_error_exits_1_and_names_the_statement() {
    let file = script(
        "import mars.tensor as mt\na = mt.arange(4, chunks=2)\nb = a ** (a - 2)\nprint(b)\n",
    );
    let out = marsc(&[path(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("error: Integers to negative integer powers are not allowed"),
        "{stderr}"
    );
    assert!(stderr.contains(":3:5"), "{stderr}");
    assert!(stderr.contains("b = a ** (a - 2)"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_memory_limit_run_prints_what_an_unlimited_run_prints() {
    let file = script("import mars.tensor as mt\nprint(mt.ones(3))\n");
    let out = marsc(&["--memory-limit", "1MiB", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[1. 1. 1.]\n");
}

#[test]
fn no_fuse_and_no_jit_are_accepted() {
    let file = script("import mars.tensor as mt\nprint(mt.ones(3, chunks=2) * 2)\n");
    let out = marsc(&["--no-fuse", "--no-jit", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[2. 2. 2.]\n");
}

#[test]
fn stats_json_has_every_field_and_stats_goes_to_stderr() {
    let dir = tempfile::tempdir().expect("temp dir");
    let json_path = dir.path().join("stats.json");
    let file =
        script("import mars.tensor as mt\nx = mt.ones((6, 6), chunks=3)\nprint((x @ x).sum())\n");
    let out = marsc(&[
        "--workers",
        "2",
        "--stats",
        "--stats-json",
        json_path.to_str().expect("utf-8 path"),
        path(&file),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "216.0\n");
    assert!(stderr_of(&out).contains("subtasks"), "{}", stderr_of(&out));
    let text = std::fs::read_to_string(&json_path).expect("stats file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    for field in [
        "tileables",
        "chunks",
        "subtasks",
        "stages",
        "kernels",
        "workers",
        "compile_seconds",
        "run_seconds",
        "transfer_bytes",
        "peak_live_chunks",
        "peak_live_bytes",
        "spilled_bytes",
        "retries",
        "subtasks_per_worker",
    ] {
        assert!(
            json.get(field).is_some(),
            "--stats-json lacks {field}: {text}"
        );
    }
    assert_eq!(json["workers"], 2);
    assert_eq!(json["stages"], 1);
    let per_worker: u64 = json["subtasks_per_worker"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|n| n.as_u64().expect("a count"))
        .sum();
    assert_eq!(Some(per_worker), json["subtasks"].as_u64());
    // Each pass's time and the resident set after it, in pipeline order, adding up to no
    // more than the compile time.
    let passes = json["passes"].as_array().expect("passes");
    let names: Vec<&str> = passes.iter().filter_map(|p| p["pass"].as_str()).collect();
    assert_eq!(
        names,
        ["parse", "lower", "tile", "fuse", "schedule", "plan", "jit"]
    );
    let total: f64 = passes.iter().filter_map(|p| p["seconds"].as_f64()).sum();
    assert!(total <= json["compile_seconds"].as_f64().expect("seconds") + 1e-6);
    assert!(passes
        .iter()
        .all(|p| p["rss_bytes_after"].as_u64().is_some_and(|b| b > 0)));
    assert!(
        stderr_of(&out).contains("passes: parse"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn trace_is_chrome_trace_json_with_a_track_per_worker() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trace_path = dir.path().join("trace.json");
    let file = script("import mars.tensor as mt\nx = mt.arange(100, chunks=10)\nprint(x.sum())\n");
    let out = marsc(&[
        "--workers",
        "3",
        "--trace",
        trace_path.to_str().expect("utf-8 path"),
        path(&file),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let text = std::fs::read_to_string(&trace_path).expect("trace file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let events = json["traceEvents"].as_array().expect("traceEvents");
    let tracks = events.iter().filter(|e| e["ph"] == "M").count();
    let spans = events.iter().filter(|e| e["ph"] == "X").count();
    assert_eq!(tracks, 3);
    // One span per subtask: 10 fused arange + map, 3 combines, 1 fused combine + finish.
    assert_eq!(spans, 14, "{text}");
}

#[test]
fn saved_files_load_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let saved = dir.path().join("x.npy");
    let saved = saved.to_str().expect("utf-8 path");
    let save = script(&format!(
        "import mars.tensor as mt\nx = mt.arange(12, chunks=5).reshape(3, 4)\nmt.save('{saved}', x.T * 1.5)\n"
    ));
    let out = marsc(&[path(&save)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert!(out.stdout.is_empty());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "only the saved file remains: {leftovers:?}"
    );
    let load = script(&format!(
        "import mars.tensor as mt\ny = mt.load('{saved}', chunks=2)\nprint(y.shape, y.dtype)\nprint(y)\n"
    ));
    let out = marsc(&[path(&load)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    // NumPy: print(np.arange(12).reshape(3, 4).T * 1.5)
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "(4, 3) float64\n[[ 0.   6.  12. ]\n [ 1.5  7.5 13.5]\n [ 3.   9.  15. ]\n [ 4.5 10.5 16.5]]\n"
    );
}

fn run_example(args: &[&str]) -> (Option<i32>, String, String) {
    let out = marsc(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_memory_limit_spills_and_keeps_the_output() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/standardize_columns.mt"
    );
    let stats = tempfile::NamedTempFile::new().expect("temp file");
    let stats_path = stats.path().to_str().expect("utf-8 path");
    let (code, plain, _) = run_example(&["--quiet", example]);
    assert_eq!(code, Some(0));
    let (code, limited, stderr) = run_example(&[
        "--quiet",
        "--memory-limit",
        "6MiB",
        "--stats-json",
        stats_path,
        example,
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(limited, plain);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stats.path()).expect("stats written"))
            .expect("valid JSON");
    assert!(json["spilled_bytes"].as_u64().expect("spilled_bytes") > 0);
    assert!(json["peak_live_bytes"].as_u64().expect("peak_live_bytes") <= 6 << 20);
}

#[test]
fn a_step_too_big_for_the_limit_is_refused_before_running() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/standardize_columns.mt"
    );
    let (code, stdout, stderr) = run_example(&["--quiet", "--memory-limit", "2MiB", example]);
    assert_eq!(code, Some(1));
    assert!(stdout.is_empty(), "nothing may run: {stdout}");
    assert!(stderr.contains("--memory-limit"), "{stderr}");
    assert!(stderr.contains("standardize_columns.mt:11:"), "{stderr}");
}

#[test]
fn faults_and_a_lost_worker_do_not_change_the_output() {
    for name in ["standardize_columns", "monte_carlo_pi", "moving_sum"] {
        let example = format!("{}/../examples/{name}.mt", env!("CARGO_MANIFEST_DIR"));
        let (_, plain, _) = run_example(&["--quiet", "--workers", "2", &example]);
        let (code, faulty, stderr) = run_example(&[
            "--quiet",
            "--workers",
            "2",
            "--inject-faults",
            "0.05,7",
            &example,
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(faulty, plain, "{name} with injected faults");
        let (code, killed, stderr) = run_example(&[
            "--quiet",
            "--workers",
            "2",
            "--kill-worker",
            "1@0.5",
            &example,
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(killed, plain, "{name} with a lost worker");
    }
}

#[test]
fn a_script_that_needs_tensor_values_runs_in_stages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let json_path = dir.path().join("stats.json");
    let file = script(
        "import mars.tensor as mt\nx = mt.arange(4.0, chunks=2)\nprint('start')\n\
         while x.sum() < 50:\n    x = x * 2\nprint(float(x.sum()), x)\n",
    );
    let out = marsc(&[
        "--stats-json",
        json_path.to_str().expect("utf-8 path"),
        path(&file),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "start\n96.0 [ 0. 16. 32. 48.]\n"
    );
    let text = std::fs::read_to_string(&json_path).expect("stats file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    // Five loop conditions (four true), `float(...)`, then the last print.
    assert_eq!(json["stages"], 7, "{text}");
    // `check` checks it up to the first value it needs.
    let checked = marsc(&["check", path(&file)]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr_of(&checked));
}

#[test]
fn emit_shows_each_stage_of_a_staged_script_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let saved = dir.path().join("kept.npy");
    let file = script(&format!(
        "import mars.tensor as mt\nx = mt.arange(4.0, chunks=2)\nprint('start')\n\
             mt.save({:?}, x)\nwhile x.sum() < 50:\n    x = x * 2\nprint(float(x.sum()), x)\n",
        saved.to_str().expect("utf-8 path")
    ));
    let emitted = marsc(&["--emit", "tileable", path(&file)]);
    assert_eq!(emitted.status.code(), Some(0), "{}", stderr_of(&emitted));
    let dump = String::from_utf8_lossy(&emitted.stdout).to_string();
    let headings: Vec<&str> = dump.lines().filter(|l| l.starts_with("# stage")).collect();
    // Five loop conditions, `float(...)`, then the rest of the script.
    assert_eq!(headings.len(), 7, "{dump}");
    assert_eq!(
        headings[0],
        "# stage 1: computes `x.sum() < 50` (line 5), which the script needs to go on"
    );
    assert_eq!(
        headings[5],
        "# stage 6: computes `x.sum()` (line 7), which the script needs to go on"
    );
    assert_eq!(headings[6], "# stage 7: the rest of the script");
    // The first stage holds the program's print and save; nothing was printed or saved.
    assert!(dump.contains("save("), "{dump}");
    assert!(!dump.contains("\nstart\n"), "{dump}");
    assert!(!saved.exists(), "--emit wrote {}", saved.display());
    // A dump is deterministic.
    let again = marsc(&["--emit", "tileable", path(&file)]);
    assert_eq!(String::from_utf8_lossy(&again.stdout), dump);
    for stage in ["chunk", "subtask", "kernels", "all"] {
        let emitted = marsc(&["--emit", stage, path(&file)]);
        assert_eq!(
            emitted.status.code(),
            Some(0),
            "{stage}: {}",
            stderr_of(&emitted)
        );
        let dump = String::from_utf8_lossy(&emitted.stdout);
        assert_eq!(dump.matches("# stage ").count(), 7, "{stage}: {dump}");
    }
    let dot = marsc(&["--emit", "chunk", "--format", "dot", path(&file)]);
    let dump = String::from_utf8_lossy(&dot.stdout);
    assert_eq!(dump.matches("digraph").count(), 7, "{dump}");
    assert!(!saved.exists());
}

/// What `mpirun -np 2` puts in rank `rank`'s environment (Open MPI's names).
fn as_rank(rank: u32) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_marsc"));
    command
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .env("OMPI_COMM_WORLD_RANK", rank.to_string());
    command
}

#[test]
fn under_mpirun_only_a_scripts_run_takes_part_and_rank_0_says_so() {
    let script = format!(
        "{}/../examples/monte_carlo_pi.mt",
        env!("CARGO_MANIFEST_DIR")
    );
    for rank in [0, 1] {
        let output = as_rank(rank).args(["check", &script]).output().unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        if rank == 0 {
            assert!(
                stderr.contains("only `marsc SCRIPT.mt` runs on MPI ranks"),
                "{stderr}"
            );
        } else {
            assert!(stderr.is_empty(), "{stderr}");
        }
    }
}

#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_without_mpi_refuses_to_run_on_several_ranks() {
    let script = format!(
        "{}/../examples/monte_carlo_pi.mt",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = as_rank(0).arg(&script).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("built without MPI support"), "{stderr}");
    assert!(stderr.contains("--features mpi"), "{stderr}");
}
