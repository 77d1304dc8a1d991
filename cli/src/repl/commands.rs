//! The REPL's `:` commands: `:help`, `:emit STAGE EXPR`, `:stats`, `:workers N`,
//! `:reset`, `:quit`.

use crate::choices::StageArg;
use clap::ValueEnum;
use marsc::driver::{subtask_graph, tile_graph, Stage};
use marsc::session::{tile_error, Session};
use marsc::tileable::prune::prune;
use std::fmt;

pub const HELP: &str = "\
Enter statements of a .mt script; an expression shows its value.
  x = mt.ones((3, 3))      bind a name (nothing runs yet)
  x.sum(axis=0)            compute and show a value (reusing what the session computed)
Commands:
  :help                    this text
  :emit STAGE EXPR         the IR of EXPR after the session's statements
                           (STAGE: ast, tileable, chunk, subtask)
  :stats                   figures of the last run
  :workers N               run on N workers
  :reset                   forget every statement and computed value
  :quit                    leave (or Ctrl-D)
Tab completes names, `mt.` functions and tensor methods; Ctrl-C cancels a running
computation or clears the line.";

/// What the loop does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    Continue,
    Quit,
}

/// Why a command failed; its text is what stderr shows, rendered already (with its
/// `error: ` and final newline).
#[derive(Debug, PartialEq, Eq)]
pub enum CommandError {
    /// An unknown command, or arguments it does not take.
    Usage(String),
    /// The expression of `:emit` did not compile or tile (its diagnostics, or the
    /// pass's error, rendered).
    Compile(String),
    /// A stage `:emit` cannot show in the REPL.
    NotSupported(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Usage(text)
            | CommandError::Compile(text)
            | CommandError::NotSupported(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for CommandError {}

/// Runs the command `line` (starting with `:`); `Ok` text goes to stdout, `Err` to
/// stderr.
pub fn command(session: &mut Session, line: &str) -> (Next, Result<String, CommandError>) {
    let line = line.trim();
    let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let result = match name {
        ":help" | ":h" | ":?" => Ok(format!("{HELP}\n")),
        ":quit" | ":q" | ":exit" => return (Next::Quit, Ok(String::new())),
        ":stats" => Ok(format!("{}\n", session.stats_text())),
        ":reset" => {
            session.reset();
            Ok("session reset\n".to_string())
        }
        ":workers" => workers(session, rest),
        ":emit" => emit(session, rest),
        _ => Err(CommandError::Usage(format!(
            "error: unknown command `{name}`; `:help` lists the commands\n"
        ))),
    };
    (Next::Continue, result)
}

fn workers(session: &mut Session, rest: &str) -> Result<String, CommandError> {
    if rest.is_empty() {
        return Ok(format!("{} workers\n", session.run_options.workers));
    }
    match rest.parse::<u32>() {
        Ok(count @ 1..=1024) => {
            session.run_options.workers = count;
            Ok(format!("{count} workers\n"))
        }
        _ => Err(CommandError::Usage(format!(
            "error: `{rest}` is not a number of workers (1 to 1024)\n"
        ))),
    }
}

/// `:emit STAGE EXPR`: the dump of EXPR's program, as `--emit` prints it.
fn emit(session: &mut Session, rest: &str) -> Result<String, CommandError> {
    let usage = || {
        CommandError::Usage(
            "error: usage: :emit STAGE EXPR (STAGE: ast, tileable, chunk, subtask)\n".to_string(),
        )
    };
    let (stage_name, expr) = rest.split_once(char::is_whitespace).ok_or_else(usage)?;
    let stage: Stage = StageArg::from_str(stage_name, true)
        .map_err(|_| usage())?
        .into();
    let expr = expr.trim();
    if stage == Stage::Ast {
        let text = format!("{expr}\n");
        let (module, diagnostics) = marsc_grammar::parse(&text);
        if !diagnostics.is_empty() {
            // The full pipeline renders them.
            session
                .lower_trial(expr)
                .map_err(|error| CommandError::Compile(error.render()))?;
        }
        return Ok(marsc_grammar::dump_ast(&module, &text));
    }
    let (text, lowered) = session
        .lower_trial(expr)
        .map_err(|error| CommandError::Compile(error.render()))?
        .ok_or_else(usage)?;
    let mut graph = lowered.lowering.graph;
    // Drop the session's tensor handles: the dump shows what EXPR alone needs.
    graph.outputs.truncate(lowered.lowering.program_outputs);
    let graph = prune(&graph);
    if stage == Stage::Tileable {
        return Ok(graph.with_source(&text).to_string());
    }
    let chunks = tile_graph(&graph).map_err(|error| CommandError::Compile(tile_error(error)))?;
    match stage {
        Stage::Chunk => Ok(chunks.to_string()),
        Stage::Subtask => {
            let subtasks = subtask_graph(&chunks, &session.options)
                .map_err(|error| CommandError::Compile(tile_error(error)))?;
            Ok(subtasks.with_chunks(&chunks).to_string())
        }
        _ => Err(CommandError::NotSupported(format!(
            "error: not supported yet: `:emit {stage_name}` in the REPL (try ast, tileable, chunk or subtask)\n"
        ))),
    }
}
