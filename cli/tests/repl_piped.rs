//! `marsc repl` driven through piped stdin: values shown as NumPy's repr (expected
//! texts are NumPy 2's), errors that do not end the session, multi-line input,
//! `:emit`, reuse of computed chunks visible in `:stats`, and the same output as
//! `marsc SCRIPT` with JIT-compiled kernels and with `--no-jit`.

use std::io::Write;
use std::process::{Command, Stdio};

struct Session {
    stdout: String,
    stderr: String,
    success: bool,
}

/// Runs one session on `input` with 2 workers.
fn repl(input: &str) -> Session {
    repl_with(&["--workers", "2"], input)
}

/// Runs one session on `input`, `marsc` started with `args`.
fn repl_with(args: &[&str], input: &str) -> Session {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .args(args)
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("marsc reads its input");
    let output = child.wait_with_output().expect("marsc finishes");
    Session {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        success: output.status.success(),
    }
}

#[test]
fn the_issue_example_prints_the_value() {
    let out = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("stdin is piped")
                .write_all(b"x = ones(3)\nx + 1\n")?;
            child.wait_with_output()
        })
        .expect("marsc runs");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "array([2., 2., 2.])\n"
    );
}

#[test]
fn expressions_show_numpy_reprs_and_python_values() {
    let session = repl(
        "a = mt.arange(6).reshape((2, 3))\n\
         a.sum()\n\
         a * 2.5\n\
         a.mean(axis=0)\n\
         a.astype(mt.int32)\n\
         a > 2\n\
         a.astype(mt.float32) / 3\n\
         mt.float32(1.5)\n\
         a.shape\n\
         a.dtype\n\
         'text'\n\
         None\n\
         print(a, 7)\n",
    );
    assert_eq!(session.stderr, "");
    assert_eq!(
        session.stdout,
        "np.int64(15)\n\
         array([[ 0. ,  2.5,  5. ],\n       [ 7.5, 10. , 12.5]])\n\
         array([1.5, 2.5, 3.5])\n\
         array([[0, 1, 2],\n       [3, 4, 5]], dtype=int32)\n\
         array([[False, False, False],\n       [ True,  True,  True]])\n\
         array([[0.        , 0.33333334, 0.6666667 ],\n       [1.        , 1.3333334 , 1.6666666 ]], dtype=float32)\n\
         np.float32(1.5)\n\
         (2, 3)\n\
         dtype('int64')\n\
         'text'\n\
         [[0 1 2]\n [3 4 5]] 7\n"
    );
}

#[test]
fn errors_are_reported_and_the_session_goes_on() {
    let session = repl(
        "y = nope + 1\n\
         x = ones(2\n\
         )\n\
         y\n\
         z = mt.arange(3)\n\
         w = z ** (z - 5)\n\
         w\n\
         x\n",
    );
    assert!(session.success);
    // Only the last input shows a value: `y` was never added, `w` fails when run,
    // and the session still has `x`.
    assert_eq!(session.stdout, "array([1., 1.])\n");
    let stderr = &session.stderr;
    assert!(
        stderr.contains("error: cannot find `nope` in this scope\n  --> <repl>:1:5"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: cannot find `y` in this scope\n  --> <repl>:1:1"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Integers to negative integer powers are not allowed."),
        "{stderr}"
    );
    // A run-time error in an earlier input points at its line in the session.
    assert!(
        stderr.contains("--> <repl>:4:5\n  |\n4 | w = z ** (z - 5)"),
        "{stderr}"
    );
}

#[test]
fn a_syntax_error_points_into_the_input() {
    let session = repl("x = ones(3)\nx +* 2\nx\n");
    assert_eq!(session.stdout, "array([1., 1., 1.])\n");
    assert!(
        session.stderr.contains("--> <repl>:1:4"),
        "{}",
        session.stderr
    );
}

#[test]
fn multi_line_input_continues_while_brackets_are_open_or_a_line_ends_with_backslash() {
    let session = repl(
        "t = mt.tensor([[1, 2],\n\
         [3, 4]])\n\
         t.sum(\n\
         axis=1)\n\
         t + \\\n\
         10\n",
    );
    assert_eq!(session.stderr, "");
    assert_eq!(
        session.stdout,
        "array([3, 7])\narray([[11, 12],\n       [13, 14]])\n"
    );
}

#[test]
fn earlier_prints_do_not_run_again() {
    let session = repl("print('once')\nx = ones(1)\nx\n");
    assert_eq!(session.stdout, "once\narray([1.])\n");
}

#[test]
fn emit_shows_the_ir_of_an_expression() {
    let session = repl(
        "x = mt.arange(4, chunks=2)\n\
         :emit tileable x + 1\n\
         :emit chunk x.sum()\n\
         :emit ast x + 1\n\
         :emit subtask x + 1\n\
         :emit kernels x\n\
         :emit tileable nope\n",
    );
    let stdout = &session.stdout;
    assert!(
        stdout.contains("= add(%0, %1, common=int64) : int64 (4,) chunks (2x2,)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("print(%2, sep=\"\", end=\"\\n\")"),
        "{stdout}"
    );
    assert!(stdout.contains("= sum.map(s0"), "{stdout}");
    assert!(stdout.contains("value: Binary + 1:1-1:6"), "{stdout}");
    assert!(
        stdout.contains("subtask graph: 3 subtasks, 5 chunk ops, 2 results"),
        "{stdout}"
    );
    assert!(
        session.stderr.contains("not supported yet"),
        "{}",
        session.stderr
    );
    assert!(
        session.stderr.contains("cannot find `nope`"),
        "{}",
        session.stderr
    );
    // `:emit` adds nothing to the session.
    assert!(!stdout.contains("array("), "{stdout}");
}

/// The number right after `marker` on each line that has it.
fn numbers_after(stdout: &str, marker: &str) -> Vec<u64> {
    stdout
        .lines()
        .filter_map(|line| line.split(marker).nth(1))
        .filter_map(|rest| rest.split(' ').next()?.parse().ok())
        .collect()
}

/// The S of each `compiled ... into C chunks and S subtasks` line of `:stats`.
fn subtask_counts(stdout: &str) -> Vec<u64> {
    numbers_after(stdout, " chunks and ")
}

#[test]
fn a_second_display_of_the_same_tensor_runs_no_subtasks() {
    let session = repl(
        "x = mt.arange(10, chunks=5)\n\
         y = x * 2\n\
         y.sum()\n\
         :stats\n\
         y.sum()\n\
         :stats\n\
         y + 1\n\
         :stats\n",
    );
    assert_eq!(session.stderr, "");
    assert!(
        session.stdout.starts_with("np.int64(90)\n"),
        "{}",
        session.stdout
    );
    assert!(
        session
            .stdout
            .contains("array([ 1,  3,  5,  7,  9, 11, 13, 15, 17, 19])"),
        "{}",
        session.stdout
    );
    // 2 arange + 2 multiply + 2 partial sums + 1 combine... (the first run);
    // nothing the second time; `y + 1` reuses y's chunks: 2 adds and the constant.
    let counts = subtask_counts(&session.stdout);
    assert_eq!(counts.len(), 3, "{}", session.stdout);
    assert!(counts[0] > 4, "{counts:?}");
    assert_eq!(counts[1], 0);
    assert_eq!(counts[2], 3);
    assert!(
        session.stdout.contains("ran 0 subtasks on"),
        "{}",
        session.stdout
    );
}

#[test]
fn commands_workers_reset_help_and_quit() {
    let session = repl(
        ":help\n\
         :workers 3\n\
         :workers 0\n\
         x = ones(1)\n\
         :reset\n\
         x\n\
         :bogus\n\
         :quit\n\
         ones(1)\n",
    );
    assert!(session.success);
    assert!(session.stdout.contains(":emit STAGE EXPR"));
    assert!(session.stdout.contains("3 workers\nsession reset\n"));
    // Nothing after `:quit` runs.
    assert!(!session.stdout.contains("array("), "{}", session.stdout);
    assert!(session.stderr.contains("`0` is not a number of workers"));
    assert!(session.stderr.contains("cannot find `x`"));
    assert!(session.stderr.contains("unknown command `:bogus`"));
}

#[test]
fn a_save_runs_once_when_entered() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let saved = dir.path().join("doubled.npy");
    let mut child = Command::new(env!("CARGO_BIN_EXE_marsc"))
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("marsc starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout is piped"));
    let path = dir.path().join("doubled").display().to_string();
    writeln!(
        stdin,
        "x = mt.arange(5, chunks=2)\nsave({path:?}, x * 2)\nprint('saved')"
    )
    .expect("written");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a line");
    assert_eq!(line, "saved\n");
    let bytes = std::fs::read(&saved).expect("the save ran");
    // int64 [0, 2, 4, 6, 8] after the 128-byte .npy header.
    assert_eq!(bytes.len(), 128 + 5 * 8);
    assert_eq!(&bytes[128 + 8..128 + 16], &2i64.to_le_bytes());
    std::fs::remove_file(&saved).expect("removed");
    writeln!(stdin, "x").expect("written");
    drop(stdin);
    line.clear();
    stdout.read_line(&mut line).expect("a line");
    assert_eq!(line, "array([0, 1, 2, 3, 4])\n");
    assert!(child.wait().expect("marsc finishes").success());
    assert!(!saved.exists(), "a later input saved again");
}

/// The number in the `(K JIT kernels)` part of each `:stats` report.
fn kernel_counts(stdout: &str) -> Vec<u64> {
    numbers_after(stdout, " subtasks (")
}

#[test]
fn element_wise_expressions_run_jit_kernels_unless_no_jit() {
    let input = "x = mt.arange(10, chunks=5)\n(x * 2 + 1) / 3\n:stats\n";
    let jit = repl_with(&["repl", "--workers", "2"], input);
    assert_eq!(jit.stderr, "");
    let kernels = kernel_counts(&jit.stdout);
    assert_eq!(kernels.len(), 1, "{}", jit.stdout);
    assert!(kernels[0] > 0, "{}", jit.stdout);
    assert!(jit
        .stdout
        .contains(&format!("jit: {} kernels compiled in", kernels[0])));
    let interpreted = repl_with(&["repl", "--workers", "2", "--no-jit"], input);
    assert_eq!(
        kernel_counts(&interpreted.stdout),
        [0],
        "{}",
        interpreted.stdout
    );
    // NumPy: (np.arange(10) * 2 + 1) / 3
    let shown = "array([0.33333333, 1.        , 1.66666667, 2.33333333, 3.        ,\n       \
                 3.66666667, 4.33333333, 5.        , 5.66666667, 6.33333333])\n";
    assert!(jit.stdout.starts_with(shown), "{}", jit.stdout);
    assert!(
        interpreted.stdout.starts_with(shown),
        "{}",
        interpreted.stdout
    );
}

/// Statements whose variables are reused by later fused expressions, over every
/// dtype: each line is one REPL input, and the whole is one script.
const MIXED_SCRIPT: &str = "\
import mars.tensor as mt
mt.random.seed(7)
a = mt.random.rand(3000, chunks=700)
b = a * 2.0 - 1.0
print(b.sum(), (b * b).mean())
c = mt.where(b > 0, b, -b) + mt.sqrt(a)
print(c.max(), c.argmin(), (c.astype(mt.float32) * 3).sum())
n = mt.arange(3000, chunks=700)
k = (n % 7) * 3 - n // 5
print(k.sum(), (k > 10).sum(), mt.clip(k, -50, 50).min())
print((b + k).std(), (n.astype(mt.int32) * 2).max())
print(c[:4], b.sum())
";

#[test]
fn a_session_prints_what_the_script_prints_with_and_without_jit() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mixed = dir.path().join("mixed.mt");
    std::fs::write(&mixed, MIXED_SCRIPT).expect("written");
    let scripts = [
        mixed,
        format!("{examples}/monte_carlo_pi.mt").into(),
        format!("{examples}/standardize_columns.mt").into(),
        format!("{examples}/softmax_rows.mt").into(),
        format!("{examples}/column_summary.mt").into(),
    ];
    for script in &scripts {
        let text = std::fs::read_to_string(script).expect("the script reads");
        for flags in [&["--workers", "2"][..], &["--workers", "2", "--no-jit"][..]] {
            let run = Command::new(env!("CARGO_BIN_EXE_marsc"))
                .args(flags)
                .arg(script)
                .output()
                .expect("marsc runs");
            assert!(
                run.status.success(),
                "{}",
                String::from_utf8_lossy(&run.stderr)
            );
            // `marsc` with no script starts a session with the same options.
            let session = repl_with(flags, &text);
            assert_eq!(session.stderr, "", "{} {flags:?}", script.display());
            assert_eq!(
                session.stdout,
                String::from_utf8_lossy(&run.stdout),
                "{} {flags:?}",
                script.display()
            );
        }
    }
}

#[test]
fn in_place_updates_reach_aliases_and_views_across_inputs() {
    // NumPy 2 prints the same for these inputs in a Python REPL.
    let session = repl(
        "x = mt.arange(4.0)\n\
         y = x\n\
         v = x[1:3]\n\
         x += 1\n\
         y\n\
         v\n\
         v *= 10\n\
         x\n\
         n = mt.arange(3)\n\
         n /= 2\n\
         n\n",
    );
    assert!(session.success, "{}", session.stderr);
    assert_eq!(
        session.stdout,
        "array([1., 2., 3., 4.])\n\
         array([2., 3.])\n\
         array([ 1., 20., 30.,  4.])\n\
         array([0, 1, 2])\n"
    );
    assert!(
        session
            .stderr
            .contains("Cannot cast ufunc 'divide' output from dtype('float64') to dtype('int64')"),
        "{}",
        session.stderr
    );
}

#[test]
fn the_repl_shows_big_tensors_as_numpy_s_repr() {
    let out = repl(
        "x = mt.ones(10**10)\nx\nmt.arange(2002, chunks=100).reshape((2, 1001))\n\
         mt.arange(3000, chunks=7).reshape((3, 1000)) / 7\nprint(x)\n",
    );
    assert!(out.success, "{}", out.stderr);
    // repr(np.broadcast_to(1.0, 10**10)) (the same text as np.ones(10**10)'s), then
    // repr(np.arange(2002).reshape((2, 1001))), repr(np.arange(3000).reshape(3, 1000) / 7)
    // and print(x), with NumPy 2.4.
    assert_eq!(
        out.stdout,
        "array([1., 1., 1., ..., 1., 1., 1.], shape=(10000000000,))\n\
         array([[   0,    1,    2, ...,  998,  999, 1000],\n       \
         [1001, 1002, 1003, ..., 1999, 2000, 2001]], shape=(2, 1001))\n\
         array([[0.00000000e+00, 1.42857143e-01, 2.85714286e-01, ...,\n        \
         1.42428571e+02, 1.42571429e+02, 1.42714286e+02],\n       \
         [1.42857143e+02, 1.43000000e+02, 1.43142857e+02, ...,\n        \
         2.85285714e+02, 2.85428571e+02, 2.85571429e+02],\n       \
         [2.85714286e+02, 2.85857143e+02, 2.86000000e+02, ...,\n        \
         4.28142857e+02, 4.28285714e+02, 4.28428571e+02]], shape=(3, 1000))\n\
         [1. 1. 1. ... 1. 1. 1.]\n"
    );
}
