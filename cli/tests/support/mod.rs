//! What the end-to-end tests of the `marsc` binary share: running it (to the end, or
//! with a hang guard), writing a script to a temporary file, and reading its output.

#![allow(dead_code, reason = "each test file uses the helpers it needs")]

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `marsc` with `args` to the end.
pub fn marsc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .output()
        .expect("marsc runs")
}

/// Runs `marsc` with `args`, killing it and failing past `limit`: a guard against a
/// blow-up coming back (what used to run for minutes), not a timing claim. Both
/// pipes are drained meanwhile, so a long output never stalls the child.
pub fn marsc_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).map(|_| bytes)
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout is piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr is piped")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("marsc status") {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().expect("kill marsc");
            let _ = child.wait();
            let stderr = stderr.join().expect("stderr reader").unwrap_or_default();
            panic!(
                "marsc {args:?} ran past {limit:?}; stderr: {}",
                String::from_utf8_lossy(&stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout reader").expect("stdout read"),
        stderr: stderr.join().expect("stderr reader").expect("stderr read"),
    }
}

/// `text` in a temporary `.mt` file, removed when dropped.
pub fn script(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(".mt")
        .tempfile()
        .expect("temp file");
    file.write_all(text.as_bytes()).expect("write script");
    file
}

pub fn path(file: &tempfile::NamedTempFile) -> &str {
    file.path().to_str().expect("utf-8 temp path")
}

pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
