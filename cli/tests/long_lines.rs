//! A script or REPL input with a 10 MB line and an error in it: the error is reported
//! promptly (rendering once wrote the line to stderr one character per system call:
//! 29 s), and the echoed line is a window around the caret, not 20 MB.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A 10 MB string and then a name that does not exist, on line 2.
fn long_line() -> String {
    format!("x = 1\ny = \"{}\" + nope\n", "a".repeat(10_000_000))
}

/// Waits for `child`, failing after `limit` (a hang guard, not a timing claim).
fn finish_within(mut child: std::process::Child, limit: Duration) -> (Option<i32>, String) {
    let started = Instant::now();
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut text).map(|_| text)
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("marsc did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = reader.join().expect("reader").expect("reads");
    (status.code(), String::from_utf8_lossy(&stderr).into_owned())
}

#[test]
fn check_reports_an_error_on_a_10_mb_line_with_a_short_excerpt() {
    let mut file = tempfile::Builder::new()
        .suffix(".mt")
        .tempfile()
        .expect("temp file");
    file.write_all(long_line().as_bytes()).expect("write");
    let child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(["check", file.path().to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    let (code, stderr) = finish_within(child, Duration::from_secs(60));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.len() < 2000, "{} bytes on stderr", stderr.len());
    assert!(stderr.contains("cannot find `nope`"), "{stderr}");
    assert!(stderr.contains(":2:10000010"), "{stderr}");
    assert!(stderr.contains("...aaa"), "{stderr}");
}

#[test]
fn the_repl_reports_an_error_on_a_10_mb_line_with_a_short_excerpt() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(["repl", "--workers", "1"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    let mut stdin = child.stdin.take().expect("piped");
    let input = format!("{}y = 2\ny + x\n", long_line());
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout));
    let (code, stderr) = finish_within(child, Duration::from_secs(60));
    writer.join().expect("writer").expect("writes");
    let stdout = reader.join().expect("reader").expect("reads");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.len() < 2000, "{} bytes on stderr", stderr.len());
    assert!(stderr.contains("cannot find `nope`"), "{stderr}");
    // The session goes on: `x = 1` was accepted, the failed line was not.
    assert_eq!(stdout, "3\n");
}
