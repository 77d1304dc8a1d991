//! `mpirun -np N marsc SCRIPT` for real, on Open MPI (cargo feature `mpi`): every
//! example and every run case prints byte for byte what one process prints, on 1 to 4
//! ranks; the seed's assignment moves fewer bytes between ranks than a random one;
//! Ctrl-C, a failing subtask and a killed rank end the job cleanly.
//!
//! Run them serially (two jobs' polling ranks on 2 cores starve each other):
//! `cargo test -p marsc --features mpi --test mpi -- --test-threads=1`. Without
//! `mpirun` on the PATH they are skipped, loudly, unless `MARSC_REQUIRE_MPI=1` (as
//! in CI), which makes a missing `mpirun` a failure.

#![cfg(feature = "mpi")]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest a job may take here before it counts as hung.
const HANG: Duration = Duration::from_secs(180);

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// Whether `mpirun` is here; a missing one skips the test, loudly, unless
/// `MARSC_REQUIRE_MPI=1`.
fn mpi_available() -> bool {
    let found = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        let required = std::env::var("MARSC_REQUIRE_MPI").is_ok_and(|value| value == "1");
        assert!(
            !required,
            "MARSC_REQUIRE_MPI=1 but mpirun is not on the PATH (apt-get install openmpi-bin)"
        );
        eprintln!(
            "SKIPPED: mpirun is not on the PATH, so the MPI tests cannot run \
             (apt-get install openmpi-bin libopenmpi-dev)"
        );
    }
    found
}

/// `mpirun -np ranks marsc args...` in `dir`, as root if need be, oversubscribed.
fn mpirun_command(ranks: u32, args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--quiet", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .env("OMPI_MCA_hwloc_base_binding_policy", "none")
        // Copy-in/copy-out between ranks on one machine, not cross-process reads
        // (CMA): containers often forbid those, and on this VM they are slower.
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Waits for `child` (draining its pipes), killing it and failing past [`HANG`].
fn finish(mut child: Child, what: &str) -> (Output, Duration) {
    let started = Instant::now();
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = loop {
        if let Some(status) = child.try_wait().expect("mpirun status") {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            panic!("{what} hung for {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = Output {
        status,
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    };
    (output, started.elapsed())
}

fn mpirun(ranks: u32, args: &[&str], dir: &Path) -> Output {
    let what = format!("mpirun -np {ranks} marsc {}", args.join(" "));
    let child = mpirun_command(ranks, args, dir)
        .spawn()
        .expect("mpirun starts");
    finish(child, &what).0
}

fn single(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("marsc runs")
}

/// A JSON file the run wrote (`--stats-json`, `--trace`).
fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("{} was not written: {error}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not JSON: {error}", path.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scripts(dir: &Path) -> Vec<PathBuf> {
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a directory of scripts")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mt"))
        .collect();
    scripts.sort();
    scripts
}

#[test]
fn examples_and_run_cases_print_what_one_process_prints_on_1_to_4_ranks() {
    if !mpi_available() {
        return;
    }
    let root = repo_root();
    let mut all = scripts(&root.join("examples"));
    all.extend(scripts(&root.join("tests/cases/run/ok")));
    all.extend(scripts(&root.join("tests/cases/run/err")));
    assert!(all.len() > 60, "{} scripts", all.len());
    let mut failures = Vec::new();
    for script in &all {
        let relative = script.strip_prefix(&root).expect("under the root");
        let relative = relative.to_str().expect("a UTF-8 path");
        let expected = single(&[relative], &root);
        for ranks in 1..=4 {
            let got = mpirun(ranks, &[relative], &root);
            if got.stdout != expected.stdout
                || got.stderr != expected.stderr
                || got.status.code() != expected.status.code()
            {
                failures.push(format!(
                    "{relative} on {ranks} ranks: status {:?} (one process: {:?})\n\
                     stdout:\n{}\nexpected:\n{}\nstderr:\n{}\nexpected:\n{}",
                    got.status.code(),
                    expected.status.code(),
                    text(&got.stdout),
                    text(&expected.stdout),
                    text(&got.stderr),
                    text(&expected.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Bytes that crossed between ranks in a run, from `--stats-json`'s `ranks`.
fn bytes_between_ranks(script: &str, assign: &str) -> u64 {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("s.mt"), script).expect("the script is written");
    let output = mpirun(
        4,
        &[
            "s.mt",
            "--workers",
            "1",
            "--no-fuse",
            "--assign",
            assign,
            "--stats-json",
            "stats.json",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stats: serde_json::Value = read_json(&dir.path().join("stats.json"));
    let ranks = stats["ranks"].as_array().expect("a ranks list");
    assert_eq!(ranks.len(), 4);
    ranks
        .iter()
        .map(|rank| rank["bytes_received"].as_u64().expect("bytes received"))
        .sum()
}

#[test]
fn the_seeds_assignment_moves_fewer_bytes_between_ranks_than_random() {
    if !mpi_available() {
        return;
    }
    let tree = "import mars.tensor as mt\n\
                x = mt.random.rand(2000, 1000, chunks=(125, 1000))\n\
                print(x.sum())\n";
    let pair = "import mars.tensor as mt\n\
                a = mt.random.rand(2000, 1000, chunks=(125, 1000))\n\
                b = mt.random.rand(2000, 1000, chunks=(125, 1000))\n\
                print((a + b).sum())\n";
    for (name, script) in [("a tree reduction", tree), ("(a + b).sum()", pair)] {
        let bfs = bytes_between_ranks(script, "bfs");
        let random = bytes_between_ranks(script, "random");
        eprintln!("{name}: bfs {bfs} bytes, random {random} bytes between ranks");
        assert!(
            bfs < random,
            "{name}: bfs moved {bfs} bytes, random {random}"
        );
    }
}

#[test]
fn injected_faults_are_retried_across_ranks() {
    if !mpi_available() {
        return;
    }
    let root = repo_root();
    let script = "examples/standardize_columns.mt";
    let expected = single(&[script], &root);
    for ranks in [2, 3] {
        let got = mpirun(ranks, &[script, "--inject-faults", "0.3,7"], &root);
        assert!(got.status.success(), "{}", text(&got.stderr));
        assert_eq!(text(&got.stdout), text(&expected.stdout));
    }
}

/// A script that saves for several seconds.
const LONG_SAVE: &str = "import mars.tensor as mt\n\
                         x = mt.random.rand(20000, 20000, chunks=(1000, 1000))\n\
                         mt.save(\"out.npy\", mt.sin(x) * 2 + mt.cos(x))\n\
                         print(\"done\")\n";

/// Starts the long save on 3 ranks in a fresh directory, and waits until its
/// temporary file exists (the run is under way).
fn start_long_save(marker: &str) -> (tempfile::TempDir, Child) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("long.mt"), LONG_SAVE).expect("the script is written");
    let child = mpirun_command(3, &["long.mt", "--workers", "1"], dir.path())
        .env("MARSC_TEST_JOB", marker)
        .spawn()
        .expect("mpirun starts");
    let started = Instant::now();
    while !entries(dir.path())
        .iter()
        .any(|name| name.ends_with(".partial"))
    {
        assert!(started.elapsed() < HANG, "the save never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    (dir, child)
}

fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("the directory")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// The process id of `rank` of the job marked `marker`.
fn rank_pid(marker: &str, rank: u32) -> i32 {
    let wanted = [
        format!("MARSC_TEST_JOB={marker}"),
        format!("OMPI_COMM_WORLD_RANK={rank}"),
    ];
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let vars: Vec<String> = environ
            .split(|&byte| byte == 0)
            .map(|var| String::from_utf8_lossy(var).into_owned())
            .collect();
        let is_marsc = std::fs::read_link(entry.path().join("exe"))
            .is_ok_and(|exe| exe.file_name().is_some_and(|name| name == "marsc"));
        if is_marsc && wanted.iter().all(|var| vars.contains(var)) {
            return pid;
        }
    }
    panic!("rank {rank} of job {marker} not found");
}

fn signal(pid: i32, signal: nix::sys::signal::Signal) {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), signal).expect("the signal is sent");
}

#[test]
fn ctrl_c_on_mpirun_stops_every_rank_and_leaves_no_partial_file() {
    if !mpi_available() {
        return;
    }
    let (dir, child) = start_long_save("ctrl-c");
    let pid = i32::try_from(child.id()).expect("a pid");
    signal(pid, nix::sys::signal::Signal::SIGINT);
    let (output, took) = finish(child, "mpirun after Ctrl-C");
    assert!(!output.status.success());
    // mpirun kills what is left 1 s after its SIGTERM; allow for a loaded machine.
    assert!(
        took < Duration::from_secs(10),
        "the job took {took:?} to stop"
    );
    assert_eq!(entries(dir.path()), ["long.mt"], "{}", text(&output.stderr));
}

#[test]
fn a_killed_rank_ends_the_job_and_nothing_reaches_the_users_name() {
    if !mpi_available() {
        return;
    }
    for victim in [1, 0] {
        let marker = format!("killed-{victim}");
        let (dir, child) = start_long_save(&marker);
        signal(rank_pid(&marker, victim), nix::sys::signal::Signal::SIGKILL);
        let (output, took) = finish(child, "mpirun after a rank was killed");
        assert!(!output.status.success());
        assert!(
            took < Duration::from_secs(15),
            "the job took {took:?} to end"
        );
        let left = entries(dir.path());
        assert!(!left.iter().any(|name| name == "out.npy"), "{left:?}");
        if victim != 0 {
            // Rank 0, which holds the save's temporary file, cleaned it up.
            assert_eq!(left, ["long.mt"], "{}", text(&output.stderr));
        }
    }
}

#[test]
fn a_trace_has_one_process_per_rank_and_a_track_per_worker() {
    if !mpi_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let script = "import mars.tensor as mt\n\
                  x = mt.random.rand(2000, 1000, chunks=(125, 1000))\n\
                  print((x * 2).sum())\n";
    std::fs::write(dir.path().join("s.mt"), script).expect("the script is written");
    let output = mpirun(
        3,
        &["s.mt", "--workers", "2", "--trace", "trace.json"],
        dir.path(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let trace: serde_json::Value = read_json(&dir.path().join("trace.json"));
    let events = trace["traceEvents"].as_array().expect("events");
    let processes: Vec<&str> = events
        .iter()
        .filter(|event| event["name"] == "process_name")
        .filter_map(|event| event["args"]["name"].as_str())
        .collect();
    assert_eq!(processes, ["rank 0", "rank 1", "rank 2"]);
    for event in events.iter().filter(|event| event["ph"] == "X") {
        let (pid, tid) = (event["pid"].as_u64(), event["tid"].as_u64());
        assert_eq!(pid, tid.map(|worker| worker / 2), "{event}");
    }
    // Only rank 0 writes it; the other ranks' workers are in it.
    assert!(events
        .iter()
        .any(|event| event["ph"] == "X" && event["pid"].as_u64() == Some(2)));
}

#[test]
fn the_memory_limit_holds_for_each_rank() {
    if !mpi_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    // 160 MB of data in 4 MB chunks, read twice (a standardize).
    let script = "import mars.tensor as mt\n\
                  x = mt.random.rand(20000000, chunks=500000)\n\
                  print(((x - x.mean()) / x.std()).sum())\n";
    std::fs::write(dir.path().join("s.mt"), script).expect("the script is written");
    let expected = single(&["s.mt"], dir.path());
    let limit: u64 = 16 << 20;
    let output = mpirun(
        3,
        &[
            "s.mt",
            "--workers",
            "2",
            "--memory-limit",
            "16MiB",
            "--stats-json",
            "stats.json",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), text(&expected.stdout));
    let stats: serde_json::Value = read_json(&dir.path().join("stats.json"));
    assert!(stats["spilled_bytes"].as_u64() > Some(0), "{stats}");
    // Each rank's share: the limit plus one subtask's working set (a few 4 MB
    // chunks), never the 160 MB of data; the three ranks together likewise.
    let peak = stats["peak_live_bytes"].as_u64().expect("peak live bytes");
    assert!(peak <= 3 * (limit + (16 << 20)), "peak {peak}: {stats}");
}
