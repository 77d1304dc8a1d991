//! Helpers shared by the run tests: run a script through the driver (the path the
//! CLI takes) and compare printed output with NumPy's, numbers within tolerance.

#![allow(dead_code)] // Each test binary uses its own subset of the helpers.

use marsc::diagnostics::{render_plain, SourceFile};
use marsc::driver::Options;
use marsc::job::{self, JobError};
use marsc::run::{RunOptions, RunStats};
use marsc_tests::repo_root;
use std::path::{Path, PathBuf};

/// Relative tolerance for float64 results (the CLI contract's).
pub const FLOAT64_TOLERANCE: f64 = 1e-12;
/// Relative tolerance for scripts that compute in float32.
pub const FLOAT32_TOLERANCE: f64 = 1e-5;

/// The `.mt` scripts of a directory, sorted by name.
pub fn scripts_in(dir: &Path) -> Vec<PathBuf> {
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mt"))
        .collect();
    scripts.sort();
    scripts
}

/// Options with paths relative to the repository root.
pub fn options() -> Options {
    Options {
        base_dir: repo_root(),
        ..Options::default()
    }
}

/// Runs a script; returns what it printed and the run's figures, or the rendered
/// error.
pub fn run_script(
    text: &str,
    options: &Options,
    workers: u32,
) -> Result<(String, RunStats), String> {
    let (output, outcome) = run_script_printing(text, options, workers);
    outcome.map(|stats| (output, stats))
}

/// Runs a script; returns what it printed (a failed run too prints what precedes
/// the failing statement) and the run's figures or the rendered error.
pub fn run_script_printing(
    text: &str,
    options: &Options,
    workers: u32,
) -> (String, Result<RunStats, String>) {
    // One worker runs small plans on the caller's thread (as the CLI does); more go
    // through the worker threads whatever the size, so tests comparing worker counts
    // compare the two executors too.
    let run_options = RunOptions {
        workers,
        progress: None,
        trace: None,
        inline_small: workers == 1,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let outcome = job::run(text, options, &run_options, &mut out);
    let output = String::from_utf8(out).expect("utf-8 output");
    (output, outcome.map_err(|error| render(text, error)))
}

/// What a script printed, followed (if it failed) by `--- error` and the error as
/// the CLI shows it: one string to compare between two runs of a property test.
pub fn outcome(text: &str, workers: u32) -> String {
    let (output, result) = run_script_printing(text, &options(), workers);
    match result {
        Ok(_) => output,
        Err(error) => format!("{output}--- error\n{error}"),
    }
}

/// The output of a script that must run.
pub fn output_of(text: &str, options: &Options, workers: u32) -> String {
    match run_script(text, options, workers) {
        Ok((output, _)) => output,
        Err(error) => panic!("the script failed:\n{error}\n--- script ---\n{text}"),
    }
}

/// An error as the CLI shows it (diagnostics rendered against the script).
pub fn render(text: &str, error: JobError) -> String {
    let source = SourceFile {
        name: "script.mt",
        text,
    };
    match error {
        JobError::Diagnostics(diagnostics) => render_plain(&source, &diagnostics),
        JobError::RunFailed(diagnostic) => render_plain(&source, &[*diagnostic]),
        other => format!("{other}\n"),
    }
}

/// The tolerance for a script: float32 if it mentions float32 anywhere.
pub fn tolerance_for(script: &str) -> f64 {
    if script.contains("float32") {
        FLOAT32_TOLERANCE
    } else {
        FLOAT64_TOLERANCE
    }
}

/// A piece of printed output: a number, or the text between numbers.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Number(&'a str),
    Text(&'a str),
}

fn is_number_start(bytes: &[u8], at: usize) -> bool {
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    // A digit not glued to a name (so `float64` stays text), or a sign or a dot
    // before one.
    let after_name = at > 0 && (bytes[at - 1].is_ascii_alphabetic() || bytes[at - 1] == b'_');
    if after_name {
        return false;
    }
    match bytes[at] {
        b'0'..=b'9' => true,
        b'-' | b'+' => digit(at + 1) || (bytes.get(at + 1) == Some(&b'.') && digit(at + 2)),
        b'.' => digit(at + 1),
        _ => false,
    }
}

fn number_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    while end < bytes.len() {
        let c = bytes[end];
        let exponent_sign = (c == b'-' || c == b'+') && matches!(bytes[end - 1], b'e' | b'E');
        if c.is_ascii_digit() || c == b'.' || c == b'e' || c == b'E' || exponent_sign {
            end += 1;
        } else {
            break;
        }
    }
    end
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let (mut start, mut at) = (0, 0);
    while at < bytes.len() {
        if is_number_start(bytes, at) {
            if start < at {
                tokens.push(Token::Text(&text[start..at]));
            }
            let end = number_end(bytes, at);
            tokens.push(Token::Number(&text[at..end]));
            (start, at) = (end, end);
        } else {
            at += 1;
        }
    }
    if start < bytes.len() {
        tokens.push(Token::Text(&text[start..]));
    }
    tokens
}

fn numbers_agree(a: &str, b: &str, tolerance: f64) -> bool {
    if a == b {
        return true;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        // NumPy prints the sign of a zero; which zero is not rounding.
        (Ok(x), Ok(y)) if x == 0.0 && y == 0.0 => x.is_sign_negative() == y.is_sign_negative(),
        (Ok(x), Ok(y)) => x == y || (x - y).abs() <= tolerance * x.abs().max(y.abs()),
        _ => false,
    }
}

/// Whitespace runs collapse, because a number printed with one more digit widens
/// NumPy's columns.
fn same_text(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace()) && a.trim().is_empty() == b.trim().is_empty()
}

/// `Ok` if `actual` is `expected` but for numbers within `tolerance` (relative);
/// otherwise a message showing the first difference.
pub fn compare_output(actual: &str, expected: &str, tolerance: f64) -> Result<(), String> {
    if actual == expected {
        return Ok(());
    }
    let (ours, theirs) = (tokens(actual), tokens(expected));
    let lines_agree = actual.lines().count() == expected.lines().count();
    let tokens_agree = ours.len() == theirs.len()
        && ours.iter().zip(&theirs).all(|pair| match pair {
            (Token::Number(a), Token::Number(b)) => numbers_agree(a, b, tolerance),
            (Token::Text(a), Token::Text(b)) => same_text(a, b),
            _ => false,
        });
    if lines_agree && tokens_agree {
        return Ok(());
    }
    let first_difference = actual
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    Err(format!(
        "outputs differ (first at line {}):\n--- marsc ---\n{actual}--- numpy ---\n{expected}",
        first_difference + 1
    ))
}

#[test]
fn comparison_tolerates_rounding_only() {
    assert!(compare_output("x 0.30000000000000004\n", "x 0.3\n", 1e-12).is_ok());
    assert!(compare_output("[1.  2.5]\n", "[1.  2.5]\n", 0.0).is_ok());
    assert!(compare_output("x 0.31\n", "x 0.3\n", 1e-12).is_err());
    assert!(compare_output("float64 3\n", "float32 3\n", 1e-12).is_err());
    assert!(compare_output("[1 2]\n", "[1 2 3]\n", 1e-12).is_err());
    assert!(compare_output("-1e-05\n", "-1.0000000000000001e-05\n", 1e-12).is_ok());
    assert!(compare_output("[-0.  1.]\n", "[ 0.  1.]\n", 1e-12).is_err());
    assert!(compare_output("-0.0\n", "0.0\n", 1e-5).is_err());
    assert!(compare_output("a\nb\n", "a b\n", 1e-12).is_err());
}

/// Options reading and writing files relative to `dir`, with or without the JIT.
pub fn options_in(dir: &Path, jit: bool) -> Options {
    Options {
        base_dir: dir.to_path_buf(),
        jit,
        ..Options::default()
    }
}

/// Two workers, quiet: how the file tests run.
pub fn run_options() -> RunOptions {
    RunOptions {
        workers: 2,
        progress: None,
        trace: None,
        ..RunOptions::default()
    }
}

/// Compiles `text` for a run; panics with the rendered diagnostic if it fails.
pub fn compile(text: &str, options: &Options) -> job::Compiled {
    job::compile_for_run(text, options, &run_options())
        .unwrap_or_else(|error| panic!("{}", render(text, error)))
}

/// A random split of `len` into chunks, chosen by cut points (for property tests).
pub fn random_splits(len: usize) -> impl proptest::strategy::Strategy<Value = Vec<usize>> {
    use proptest::prelude::*;
    prop::collection::vec(any::<bool>(), len.saturating_sub(1)).prop_map(move |cuts| {
        let mut out = vec![];
        let mut size = 1;
        for cut in cuts {
            if cut {
                out.push(size);
                size = 1;
            } else {
                size += 1;
            }
        }
        out.push(size);
        out
    })
}

/// The items of a Python list or tuple literal, `1, 2, 3` (the brackets are the
/// caller's), for the scripts property tests write.
pub fn list<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Python tuple literal: `(4,)` for one item, `(2, 3)` otherwise.
pub fn tuple<T: ToString>(values: &[T]) -> String {
    match values {
        [one] => format!("({},)", one.to_string()),
        _ => format!("({})", list(values)),
    }
}
