//! End-to-end tests of `marsc order`: the report on stdout, and the exit statuses of
//! the CLI contract (0 success, 1 a bad graph file, 2 bad usage).

use std::io::Write;
use std::process::{Command, Output};

fn marsc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .output()
        .expect("marsc runs")
}

fn dag_file(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(".dag")
        .tempfile()
        .expect("temp file");
    file.write_all(text.as_bytes()).expect("write graph");
    file
}

#[test]
fn prints_the_order_then_max_live_results() {
    let file = dag_file("a:\nb: a\nc: a\nd: b c\n");
    let out = marsc(&["order", file.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "0 a\n1 b\n2 c\n3 d\nmax_live_results 2\n"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn a_bad_file_exits_1_naming_the_line() {
    let file = dag_file("a:\nb: a\nc: b missing\n");
    let out = marsc(&["order", file.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":3: `c` depends on `missing`"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn an_unreadable_file_exits_1() {
    let out = marsc(&["order", "/nonexistent/graph.dag"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(marsc(&["order"]).status.code(), Some(2));
    assert_eq!(marsc(&["order", "a.dag", "b.dag"]).status.code(), Some(2));
    assert_eq!(marsc(&["order", "--bogus", "a.dag"]).status.code(), Some(2));
}
