//! `marsc repl` on a pseudo-terminal (rexpect): the prompt, continuation lines, tab
//! completion, Ctrl-C clearing the line or cancelling a computation, Ctrl-D
//! leaving, and the history file. Checks go through printed values, which are
//! free of the line editor's escape sequences.

use rexpect::session::{spawn_command, PtySession};
use std::process::Command;

const TIMEOUT_MS: u64 = 20_000;

/// A session whose history goes to `state_dir/marsc/history`.
fn start(state_dir: &std::path::Path) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_marsc"));
    command
        .args(["repl"])
        .env("XDG_STATE_HOME", state_dir)
        .env("TERM", "xterm");
    let mut session = spawn_command(command, Some(TIMEOUT_MS)).expect("marsc starts on a pty");
    session.exp_string(">>> ").expect("the first prompt");
    session
}

fn leave(mut session: PtySession) {
    session.send_control('d').expect("Ctrl-D is sent");
    session.exp_eof().expect("Ctrl-D ends the session");
}

#[test]
fn prompt_values_continuation_and_history() {
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut session = start(state.path());
    session.send_line("x = ones(3)").expect("sent");
    session
        .exp_string(">>> ")
        .expect("a prompt after an assignment");
    session.send_line("t = (x +").expect("sent");
    session.exp_string("... ").expect("the continuation prompt");
    session.send_line("1)").expect("sent");
    session.exp_string(">>> ").expect("a prompt");
    session.send_line("t * 2").expect("sent");
    session
        .exp_string("array([4., 4., 4.])")
        .expect("the value");
    session.exp_string(">>> ").expect("a prompt");
    session.send_line("nope").expect("sent");
    session
        .exp_string("cannot find `nope`")
        .expect("the diagnostic");
    session.exp_string(">>> ").expect("the session goes on");
    leave(session);
    let history = std::fs::read_to_string(state.path().join("marsc/history"))
        .expect("the history file is written");
    assert!(history.contains("t * 2"), "{history}");
    // The next session starts with that history: Up recalls the last input.
    let mut session = start(state.path());
    session.send("\x1b[A").expect("Up");
    session.send_line("").expect("sent");
    session
        .exp_string("cannot find `nope`")
        .expect("the recalled input ran");
    leave(session);
}

#[test]
fn tab_completes_library_functions_and_tensor_methods() {
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut session = start(state.path());
    session.send("xs = mt.aran").expect("sent");
    session.send("\t").expect("tab");
    session.send_line("(4)").expect("sent");
    // The completion redraws the line behind a `>>> `: wait for the line's end, so
    // that the next `>>> ` is the new prompt (input typed before the line editor
    // takes the terminal again is discarded).
    session.exp_string("(4)").expect("the completed line");
    session.exp_string(">>> ").expect("a prompt");
    session.send("xs.cums").expect("sent");
    session.send("\t").expect("tab");
    session.send_line("()").expect("sent");
    session
        .exp_string("array([0, 1, 3, 6])")
        .expect("xs.cumsum()");
    session.exp_string(">>> ").expect("a prompt");
    // A variable completes too.
    session.send("x").expect("sent");
    session.send("\t").expect("tab");
    session.send_line(".sum()").expect("sent");
    session.exp_string("np.int64(6)").expect("xs.sum()");
    leave(session);
}

#[test]
fn ctrl_c_clears_the_line_and_cancels_a_computation() {
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut session = start(state.path());
    session.send("this is not valid").expect("sent");
    session.send_control('c').expect("Ctrl-C");
    session.exp_string(">>> ").expect("a fresh prompt");
    session.send_line("6 * 7").expect("sent");
    let before = session.exp_string("42").expect("the new line ran");
    assert!(!before.contains("error"), "the cleared line ran: {before}");
    session.exp_string(">>> ").expect("a prompt");
    // 1e10 random numbers on one worker: far longer than the test waits.
    session.send_line(":workers 1").expect("sent");
    session.exp_string(">>> ").expect("a prompt");
    session
        .send_line("x = mt.random.rand(100000, 100000, chunks=2000)")
        .expect("sent");
    session.exp_string(">>> ").expect("a prompt");
    session.send_line("x.sum()").expect("sent");
    std::thread::sleep(std::time::Duration::from_millis(700));
    session.send_control('c').expect("Ctrl-C");
    session.exp_string("interrupted").expect("the run stops");
    session.exp_string(">>> ").expect("back at the prompt");
    // The next computation is not cancelled by the Ctrl-C before it.
    session.send_line("x[:2, 0] * 0 - 5").expect("sent");
    session
        .exp_string("array([-5., -5.])")
        .expect("the session goes on");
    leave(session);
}
