//! Ctrl-C, SIGTERM and SIGHUP on the `marsc` binary: a long job with a `save` gets
//! the signal part-way and must exit with status 128 + the signal (130, 143, 129)
//! within a couple of seconds, and leave neither a file under the save's final
//! name, nor its temporary file, nor a spill directory in TMPDIR.

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

/// A signal to send, as `kill` names it, and the exit status it must give.
#[derive(Clone, Copy, Debug)]
struct Sig(&'static str, i32);

const SIGINT: Sig = Sig("INT", 130);
const SIGTERM: Sig = Sig("TERM", 143);
const SIGHUP: Sig = Sig("HUP", 129);

fn send(child: &Child, Sig(name, _): Sig) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name} failed");
}

/// Sends SIGINT and checks how the job ended and what it left behind.
fn interrupt_and_check(job: Job) {
    signal_and_check(job, SIGINT);
}

/// Sends `signal` and checks how the job ended and what it left behind.
fn signal_and_check(mut job: Job, signal: Sig) {
    let sent = Instant::now();
    send(&job.child, signal);
    let deadline = sent + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = job.child.try_wait().expect("poll marsc") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = job.child.kill();
            panic!("marsc did not stop after {signal:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = sent.elapsed();
    let output = job.child.wait_with_output().expect("marsc output");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        status.code(),
        Some(signal.1),
        "{signal:?}: stderr: {stderr}"
    );
    assert!(took < STOP_WITHIN, "took {took:?} to stop");
    if signal.0 == "INT" {
        assert!(stderr.contains("interrupted"), "stderr: {stderr}");
    }
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

#[test]
fn sigterm_and_sighup_during_a_save_clean_up_as_ctrl_c_does() {
    for signal in [SIGTERM, SIGHUP] {
        let mut job = start(&SAVE_EARLY);
        wait_until(&mut job, "the save started", has_partial_save);
        signal_and_check(job, signal);
    }
}

#[test]
fn sigterm_and_sighup_while_spilling_remove_the_spill_directory() {
    for signal in [SIGTERM, SIGHUP] {
        let mut job = start(&[SAVE_EARLY[0], SAVE_EARLY[1], "--memory-limit", "40MiB"]);
        wait_until(&mut job, "the spill directory exists", has_spill_dir);
        wait_until(&mut job, "the save started", has_partial_save);
        signal_and_check(job, signal);
    }
}

#[test]
fn sigterm_soon_after_the_start_exits_143() {
    let job = start(&[]);
    std::thread::sleep(Duration::from_millis(300));
    signal_and_check(job, SIGTERM);
}

#[test]
fn sigterm_ends_an_idle_repl_with_143() {
    // Signals are taken by a thread, not by their default action: one that came while
    // no run is going must still end the process, at once.
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc repl starts");
    let mut stdin = child.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut stdin, b"x = 1 + 1\n").expect("write");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    send(&child, SIGTERM);
    let deadline = sent + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll marsc") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("an idle REPL did not end on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(stdin);
    assert_eq!(status.code(), Some(143));
    assert!(sent.elapsed() < STOP_WITHIN, "took {:?}", sent.elapsed());
}
