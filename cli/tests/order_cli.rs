//! End-to-end tests of `marsc order`: the report on stdout, and the exit statuses of
//! the CLI contract (0 success, 1 a bad graph file, 2 bad usage).

mod support;

use std::io::Write;
use std::process::Output;
use support::{marsc, marsc_within};

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

/// Runs `marsc order` on `text`, failing if it has not finished after `limit`
/// (a guard against the quadratic blow-up coming back, not a timing claim: the
/// fixed pass takes well under a tenth of it).
fn order_within(text: &str, limit: std::time::Duration) -> Output {
    let file = dag_file(text);
    marsc_within(&["order", file.path().to_str().unwrap()], limit)
}

/// One node reading `degree` roots (a dependency list of `degree` names).
fn fan_in(degree: usize) -> String {
    let mut text: String = (0..degree).map(|i| format!("r{i}:\n")).collect();
    text.push_str("sink:");
    for i in 0..degree {
        text.push_str(&format!(" r{i}"));
    }
    text.push('\n');
    text
}

#[test]
fn a_node_of_in_degree_300k_is_ordered_in_linear_time() {
    // Checking each dependency against the line's earlier ones made this quadratic:
    // 300k dependencies took 67 s in a release build.
    let out = order_within(&fan_in(300_000), std::time::Duration::from_secs(60));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 300_002);
    assert!(stdout.contains("300000 sink\n"), "the sink runs last");
}

#[test]
fn a_dependency_listed_twice_among_many_is_still_found() {
    let mut text = fan_in(1000);
    text.push_str("other: r5 r999 r5\n");
    let out = order_within(&text, std::time::Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(":1002: `r5` is listed twice as a dependency of `other`"),
        "{stderr}"
    );
}
