//! Ctrl-C on the `marsc` binary: a long job with a `save` gets SIGINT part-way and
//! must exit with status 130 within a couple of seconds, saying "interrupted", and
//! leave neither a file under the save's final name, nor its temporary file, nor a
//! spill directory in TMPDIR.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Generous: the machine running the tests is shared and noisy.
const STOP_WITHIN: Duration = Duration::from_secs(2);

/// Long enough (several seconds in a test build) to be caught mid-run, and it saves.
const LONG_JOB: &str = "\
import mars.tensor as mt
x = mt.random.rand(6000, 6000, chunks=1000)
y = mt.sqrt(x * 2 + 1) * mt.sin(x) ** 3 + mt.exp(mt.cos(x)) / (x + 1) - mt.tanh(x)
mt.save(\"out.npy\", y)
print(y.sum())
print(mt.log1p(y).std())
";

struct Job {
    child: Child,
    save_dir: tempfile::TempDir,
    tmp_dir: tempfile::TempDir,
}

/// Breadth-first order starts the save (its temporary file) at once and keeps it
/// open for most of the run; the default order starts it near the end, which would
/// leave only a short window to interrupt it in.
const SAVE_EARLY: [&str; 2] = ["--order", "bfs"];

fn start(extra_args: &[&str]) -> Job {
    let save_dir = tempfile::tempdir().expect("save dir");
    let tmp_dir = tempfile::tempdir().expect("TMPDIR");
    let script = save_dir.path().join("long.mt");
    std::fs::write(&script, LONG_JOB).expect("write script");
    let child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(["--workers", "2", "--quiet"])
        .args(extra_args)
        .arg(&script)
        .current_dir(save_dir.path())
        .env("TMPDIR", tmp_dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    Job {
        child,
        save_dir,
        tmp_dir,
    }
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("list directory")
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    found.sort();
    found
}

/// Waits until `ready` holds (the job is visibly running), failing after a minute.
fn wait_until(job: &mut Job, what: &str, ready: impl Fn(&Job) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready(job) {
        if let Some(status) = job.child.try_wait().expect("poll marsc") {
            panic!("marsc ended ({status}) before {what}");
        }
        assert!(Instant::now() < deadline, "marsc never got to {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn has_partial_save(job: &Job) -> bool {
    entries(job.save_dir.path())
        .iter()
        .any(|path| path.to_string_lossy().ends_with(".partial"))
}

fn has_spill_dir(job: &Job) -> bool {
    entries(job.tmp_dir.path())
        .iter()
        .any(|path| path.to_string_lossy().contains("marsc-spill-"))
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -INT failed");
}

/// Sends SIGINT and checks how the job ended and what it left behind.
fn interrupt_and_check(mut job: Job) {
    let sent = Instant::now();
    interrupt(&job.child);
    let deadline = sent + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = job.child.try_wait().expect("poll marsc") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = job.child.kill();
            panic!("marsc did not stop after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = sent.elapsed();
    let output = job.child.wait_with_output().expect("marsc output");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(status.code(), Some(130), "stderr: {stderr}");
    assert!(took < STOP_WITHIN, "took {took:?} to stop");
    assert!(stderr.contains("interrupted"), "stderr: {stderr}");
    assert!(output.stdout.is_empty(), "printed after an interrupt");
    let left: Vec<PathBuf> = entries(job.save_dir.path())
        .into_iter()
        .filter(|path| !path.ends_with("long.mt"))
        .collect();
    assert!(left.is_empty(), "left in the save directory: {left:?}");
    let left = entries(job.tmp_dir.path());
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

#[test]
fn ctrl_c_during_a_save_stops_quickly_and_leaves_nothing() {
    let mut job = start(&SAVE_EARLY);
    wait_until(&mut job, "the save started", has_partial_save);
    interrupt_and_check(job);
}

#[test]
fn ctrl_c_while_spilling_removes_the_spill_directory() {
    let mut job = start(&[SAVE_EARLY[0], SAVE_EARLY[1], "--memory-limit", "40MiB"]);
    wait_until(&mut job, "the spill directory exists", has_spill_dir);
    wait_until(&mut job, "the save started", has_partial_save);
    interrupt_and_check(job);
}

#[test]
fn ctrl_c_soon_after_the_start_exits_130() {
    let job = start(&[]);
    // Probably while compiling or at the first subtasks; whichever phase it hits,
    // the outcome must be the same.
    std::thread::sleep(Duration::from_millis(300));
    interrupt_and_check(job);
}
