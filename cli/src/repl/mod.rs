//! `marsc repl` (and `marsc` with no script): an interactive session. Each input
//! extends one growing program; an expression shows its value as Python's REPL
//! shows a NumPy value, computing only what that value needs and reusing the chunks
//! the session already computed (the library's `marsc::session`).
//!
//! On a terminal it is a rustyline editor (history across sessions, editing, tab
//! completion, `... ` continuation while brackets are open or a line ends with `\`;
//! Ctrl-C clears the line or cancels a running computation, Ctrl-D leaves). With
//! piped input it reads lines without prompts, so tests and scripts can drive it.

mod commands;
mod complete;

use crate::interrupt;
use commands::{command, Next};
use complete::ReplHelper;
use marsc::driver::Options;
use marsc::run::output::Printed;
use marsc::run::{CancelToken, RunOptions};
use marsc::session::{self, Session};
use marsc_grammar::lexer::needs_more_input;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::Editor;
use std::io::{BufRead, IsTerminal, Write};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;

const PROMPT: &str = ">>> ";
const CONTINUATION_PROMPT: &str = "... ";

/// Runs a session on stdin until end of input, `:quit` or Ctrl-D.
pub fn main(options: Options, run_options: RunOptions) -> ExitCode {
    let lower_options = session::lower_options(&options);
    let mut session = Session::new(options, &lower_options, run_options);
    if std::io::stdin().is_terminal() {
        terminal(&mut session)
    } else {
        install_interrupt();
        piped(&mut session)
    }
}

/// Makes Ctrl-C during a computation cancel it rather than end the process.
fn install_interrupt() {
    if let Err(message) = interrupt::install() {
        eprintln!("warning: {message}; Ctrl-C will end the session");
    }
}

/// Runs one complete input (a command or statements) and shows its outcome.
fn handle(session: &mut Session, input: &str) -> Next {
    // A compiler bug must not end the session (the panic hook has printed it).
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
        if input.trim_start().starts_with(':') {
            let (next, result) = command(session, input);
            (next, result.map_err(|error| error.to_string()))
        } else {
            // This input's own token: a Ctrl-C from now on cancels it, and one pressed
            // before it (while nothing ran) cancelled only an earlier one.
            let cancel = CancelToken::new();
            let _watch = interrupt::watch(&cancel);
            let shown = session.statements_with(input, cancel);
            (
                Next::Continue,
                shown
                    .map(|shown| shown.iter().map(Printed::text).collect())
                    .map_err(|error| {
                        // What its stages printed before it failed comes first.
                        let before: String = error.shown.iter().map(Printed::text).collect();
                        let mut out = std::io::stdout().lock();
                        let _ = out.write_all(before.as_bytes()).and_then(|()| out.flush());
                        error.render()
                    }),
            )
        }
    }));
    let (next, result) = outcome.unwrap_or_else(|_| {
        (
            Next::Continue,
            Err(
                "internal compiler error: the input above crashed marsc; the session goes on\n"
                    .to_string(),
            ),
        )
    });
    // A closed stdout or stderr leaves nothing better to report to.
    match result {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        }
        Err(text) => {
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
    }
    next
}

/// Whether `buffer` is a complete input: a command is one line; statements are
/// complete once no bracket is open and no line continues.
fn is_complete(buffer: &str) -> bool {
    buffer.trim_start().starts_with(':') || !needs_more_input(buffer)
}

/// Reads inputs line by line from piped stdin, without prompts or line editing.
fn piped(session: &mut Session) -> ExitCode {
    let mut buffer = String::new();
    for line in std::io::stdin().lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                eprintln!("error: cannot read the input: {error}");
                return ExitCode::from(1);
            }
        };
        buffer.push_str(&line);
        buffer.push('\n');
        if !is_complete(&buffer) {
            continue;
        }
        if handle(session, &std::mem::take(&mut buffer)) == Next::Quit {
            return ExitCode::SUCCESS;
        }
    }
    if !buffer.trim().is_empty() {
        // Unclosed brackets at the end: the diagnostics say so.
        handle(session, &buffer);
    }
    ExitCode::SUCCESS
}

/// The interactive loop on a terminal.
fn terminal(session: &mut Session) -> ExitCode {
    let mut editor = match Editor::<ReplHelper, FileHistory>::new() {
        Ok(editor) => editor,
        Err(error) => {
            eprintln!("error: cannot start the line editor: {error}");
            return ExitCode::from(1);
        }
    };
    editor.set_helper(Some(ReplHelper::default()));
    // rustyline takes SIGINT over when the editor is made (while reading a line it
    // sees Ctrl-C as a key anyway); the session's handler must come after it.
    install_interrupt();
    let history = history_path();
    if let Some(path) = &history {
        // A first session has no history file yet.
        let _ = editor.load_history(path);
    }
    println!(
        "marsc {} interactive session; :help for help, Ctrl-D to leave",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        let input = match read_input(&mut editor) {
            Ok(Some(input)) => input,
            Ok(None) => continue,
            Err(ReadlineError::Eof) => return ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: cannot read the input: {error}");
                return ExitCode::from(1);
            }
        };
        if input.trim().is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(input.trim_end());
        if let Some(path) = &history {
            if let Err(error) = editor.append_history(path) {
                eprintln!(
                    "warning: cannot save the history to {}: {error}",
                    path.display()
                );
            }
        }
        let next = handle(session, &input);
        if let Some(helper) = editor.helper_mut() {
            helper.scope = session.scope();
        }
        if next == Next::Quit {
            return ExitCode::SUCCESS;
        }
    }
}

/// One complete input, reading continuation lines while it is incomplete;
/// `Ok(None)` when Ctrl-C cleared it.
fn read_input(
    editor: &mut Editor<ReplHelper, FileHistory>,
) -> Result<Option<String>, ReadlineError> {
    let mut buffer = String::new();
    let mut prompt = PROMPT;
    loop {
        match editor.readline(prompt) {
            Ok(line) => {
                buffer.push_str(&line);
                buffer.push('\n');
                if is_complete(&buffer) {
                    return Ok(Some(buffer));
                }
                prompt = CONTINUATION_PROMPT;
            }
            Err(ReadlineError::Interrupted) => return Ok(None),
            Err(error) => return Err(error),
        }
    }
}

/// `$XDG_STATE_HOME/marsc/history`, else `~/.marsc_history`; `None` when neither
/// can be found or made.
fn history_path() -> Option<PathBuf> {
    if let Some(state) = std::env::var_os("XDG_STATE_HOME").filter(|dir| !dir.is_empty()) {
        let dir = PathBuf::from(state).join("marsc");
        if std::fs::create_dir_all(&dir).is_ok() {
            return Some(dir.join("history"));
        }
    }
    std::env::var_os("HOME")
        .filter(|dir| !dir.is_empty())
        .map(|home| PathBuf::from(home).join(".marsc_history"))
}
