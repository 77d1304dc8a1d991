//! REPL sessions, as a library any front-end drives (the `marsc repl` terminal
//! loop, tests, a server's notebook-like sessions to come).
//!
//! One session: the growing program (the text of every accepted input), its
//! lowering state, the cache of computed chunks, the files it loaded, the figures of
//! the last run, and what one input does.
//!
//! An input is parsed on its own (syntax errors point into its own text), its spans
//! moved into the session's text, and lowered after the accepted statements by the
//! session's [`SessionLowerer`], which keeps its state between inputs: nothing
//! accepted is parsed or lowered again. An input that fails to compile is reported
//! and not added. What its outputs need (and only that) is tiled, planned against
//! the cache ([`compute`]), run, and shown: prints as `print` shows them,
//! echoed tensors with NumPy's `repr`. A statement that needs a load whose file has
//! changed since fails alone ([`files`]).

pub mod compute;
pub mod error;
pub mod files;
pub mod session_kernel;
pub mod spans;
pub mod stages;

use crate::chunk::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::driver::Options;
use crate::error::JobError;
use crate::lower::incremental::{Members, SessionLowerer, SessionLowering};
use crate::lower::LowerOptions;
use crate::run::output::{PrintSink, Printed};
use crate::run::{CancelToken, RunOptions, RunStats};
use crate::tileable::Output;
pub use error::InputError;
use files::{LoadedFiles, Staleness};
use marsc_grammar::ast::Module;
use marsc_grammar::Diagnostic;
use spans::shift_module;
use stages::Runner;
pub use stages::StageDumps;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Instant;

/// The file name diagnostics show for REPL input.
pub const SOURCE_NAME: &str = "<repl>";

/// An input lowered after the accepted program.
pub struct Lowered {
    /// Where the input starts in the session's text.
    pub offset: usize,
    pub lowering: SessionLowering,
    pub compile_started: Instant,
}

/// The state of one session.
pub struct Session<'o> {
    /// Every accepted input, each ending with a newline: the text spans point into.
    accepted: String,
    pub options: Options,
    /// How inputs run (workers, memory limit, ...), as a script's run does; each
    /// input gets a cancel token of its own.
    pub run_options: RunOptions,
    lowerer: SessionLowerer<'o>,
    /// Runs inputs and stages, with the cache of computed chunks; shared with the
    /// lowering state, which starts a stage from inside an input.
    runner: Rc<RefCell<Runner<'o>>>,
    files: LoadedFiles,
    last_stats: Option<RunStats>,
}

/// What lowering needs from the session's options (`chunk_bytes`, `base_dir`).
pub fn lower_options(options: &Options) -> LowerOptions {
    LowerOptions {
        chunk_bytes: options.chunk_bytes,
        base_dir: options.base_dir.clone(),
        root: options.root.clone(),
    }
}

impl<'o> Session<'o> {
    /// A session; `lower_options` must be [`lower_options`] of `options` (it lives
    /// outside, as long as the session, since the lowering state borrows it).
    pub fn new(
        options: Options,
        lower_options: &'o LowerOptions,
        run_options: RunOptions,
    ) -> Session<'o> {
        let runner = Runner::new(options.clone(), run_options.clone());
        Session::with_runner(options, lower_options, run_options, runner)
    }

    fn with_runner(
        options: Options,
        lower_options: &'o LowerOptions,
        run_options: RunOptions,
        runner: Runner<'o>,
    ) -> Session<'o> {
        let runner = Rc::new(RefCell::new(runner));
        Session {
            accepted: String::new(),
            options,
            run_options,
            lowerer: SessionLowerer::with_stager(lower_options, runner.clone()),
            runner,
            files: LoadedFiles::default(),
            last_stats: None,
        }
    }

    /// A session that runs a whole script as one input (a script that needs tensor
    /// values runs in stages this way): expression statements show nothing, as in
    /// a script. What its stages print goes to `sink` as each stage ends; what its
    /// last run prints is returned, as an input's is.
    pub fn for_script(
        options: Options,
        lower_options: &'o LowerOptions,
        run_options: RunOptions,
        sink: &'o mut dyn PrintSink,
    ) -> Session<'o> {
        let runner = Runner::printing_to(options.clone(), run_options.clone(), sink);
        let mut session = Session::with_runner(options, lower_options, run_options, runner);
        session.lowerer.echo = false;
        session
    }

    /// Dumps every later run for `--emit` instead of running it (a stage runs only
    /// the value its decision needs).
    pub fn emit_to(&mut self, dumps: StageDumps) {
        self.runner.borrow_mut().emit_to(dumps);
    }

    /// The dumps made since [`emit_to`](Self::emit_to).
    pub fn take_dumps(&mut self) -> Option<StageDumps> {
        self.runner.borrow_mut().take_dumps()
    }

    /// The figures of the last input's runs (its stages added up).
    pub fn last_stats(&self) -> Option<&RunStats> {
        self.last_stats.as_ref()
    }

    /// The session's variables and what `NAME.` completes to, sorted (built when
    /// asked: a piped session never needs it).
    pub fn scope(&self) -> Vec<(String, Members)> {
        self.lowerer.scope()
    }

    /// The figures of the last run, with the size of the cache.
    pub fn stats_text(&self) -> String {
        let runner = self.runner.borrow();
        match &self.last_stats {
            Some(stats) => format!(
                "{stats}\njit: {} kernels compiled in {:.3}s\ncached: {} chunks, {} bytes",
                stats.kernels,
                stats.jit_seconds,
                runner.cache.len(),
                runner.cache.bytes()
            ),
            None => "no run yet".to_string(),
        }
    }

    /// Forgets every statement, value and figure.
    pub fn reset(&mut self) {
        self.accepted.clear();
        self.lowerer.reset();
        self.clear_cache();
        self.files.clear();
        self.last_stats = None;
    }

    /// Parses `input` on its own, with spans into the session's text as it would be
    /// with the input appended; `Ok(None)` for an input with no statements.
    fn parse_input(&self, input: &str) -> Result<Option<(String, Module)>, InputError> {
        let input = with_newline(input);
        let (mut module, diagnostics) = marsc_grammar::parse(&input);
        if !diagnostics.is_empty() {
            return Err(InputError {
                error: JobError::Diagnostics(diagnostics),
                text: input,
                shown: Vec::new(),
            });
        }
        if module.stmts.is_empty() {
            return Ok(None);
        }
        let offset = u32::try_from(self.accepted.len() + input.len())
            .map(|_| self.accepted.len() as u32)
            .map_err(|_| {
                InputError::unlocated(JobError::Limit(
                    "the session's statements exceed 4 GiB of text; `:reset` starts a new one"
                        .to_string(),
                ))
            })?;
        shift_module(&mut module, offset);
        Ok(Some((input, module)))
    }

    /// Lowers `input` after the accepted program without keeping it (`:emit`): the
    /// session's text with the input, and the lowering.
    pub fn lower_trial(&mut self, input: &str) -> Result<Option<(String, Lowered)>, InputError> {
        let compile_started = Instant::now();
        let Some((input, module)) = self.parse_input(input)? else {
            return Ok(None);
        };
        let offset = self.accepted.len();
        let text = format!("{}{input}", self.accepted);
        let lowering = self.lowerer.trial(&module).map_err(|diagnostics| {
            InputError::in_input(&text, offset, JobError::Diagnostics(diagnostics))
        })?;
        verify(&lowering)?;
        Ok(Some((
            text,
            Lowered {
                offset,
                lowering,
                compile_started,
            },
        )))
    }

    /// Runs one input of statements: what it shows (its prints, and the values of
    /// its expression statements as [`crate::run::output::PrintedItem::Echo`]), in
    /// order.
    pub fn statements(&mut self, input: &str) -> Result<Vec<Printed>, InputError> {
        self.statements_with(input, CancelToken::new())
    }

    /// [`statements`](Self::statements), rendered as the REPL shows it.
    pub fn statements_text(&mut self, input: &str) -> Result<String, InputError> {
        let shown = self.statements(input)?;
        Ok(shown.iter().map(Printed::text).collect())
    }

    /// [`statements`](Self::statements) with the input's own cancel token: whoever
    /// holds a clone (the terminal's Ctrl-C) cancels the input while it runs. A token
    /// of an earlier input (one a Ctrl-C cancelled) cancels nothing here.
    pub fn statements_with(
        &mut self,
        input: &str,
        cancel: CancelToken,
    ) -> Result<Vec<Printed>, InputError> {
        self.run_options.cancel = cancel;
        let compile_started = Instant::now();
        let Some((input, module)) = self.parse_input(input)? else {
            return Ok(Vec::new());
        };
        let offset = self.accepted.len();
        let first_node = self.lowerer.node_count();
        self.runner
            .borrow_mut()
            .begin_input(&self.options, &self.run_options);
        let accepted = self.lowerer.accept(&module);
        let (staged, stage_failure) = self.runner.borrow_mut().take_stage_outcome();
        self.settle_stats();
        let lowering = match accepted {
            Ok(lowering) => lowering,
            Err(diagnostics) => {
                // A stage's failure, or the errors found (after the stages that ran).
                let error = stage_failure.unwrap_or(JobError::Diagnostics(diagnostics));
                let text = format!("{}{input}", self.accepted);
                return Err(InputError::in_input(&text, offset, error).with_shown(staged));
            }
        };
        // It compiled: it is part of the program now, even if running it fails.
        self.accepted.push_str(&input);
        if self.files.record(self.lowerer.loads_since(first_node)) {
            // Chunk keys name a load by path: another version's chunks must go.
            self.clear_cache();
        }
        let lowered = Lowered {
            offset,
            lowering,
            compile_started,
        };
        // What the input's stages printed comes first, whatever happens next.
        match self.run_accepted(&lowered) {
            Ok(shown) => Ok(staged.into_iter().chain(shown).collect()),
            Err(error) => Err(error.after(staged)),
        }
    }

    /// Runs the outputs of an accepted input (after its stages).
    fn run_accepted(&mut self, lowered: &Lowered) -> Result<Vec<Printed>, InputError> {
        verify(&lowered.lowering)?;
        if lowered.lowering.program_outputs == 0 {
            return Ok(Vec::new());
        }
        self.check_files(lowered, &[])?;
        let shown = self.run(lowered);
        // A file that changed while the run read it may have given it mixed data.
        let saved = saved_paths(&lowered.lowering);
        if let Err(error) = self.check_files(lowered, &saved) {
            self.clear_cache();
            return Err(error);
        }
        shown
    }

    /// Fails when a load the input needs no longer has the file it loaded (files in
    /// `saved`, which the input itself writes, are expected to change).
    fn check_files(&mut self, lowered: &Lowered, saved: &[PathBuf]) -> Result<(), InputError> {
        let Some(staleness) = self.files.check(&lowered.lowering.loads, saved) else {
            return Ok(());
        };
        let (load, what) = match staleness {
            Staleness::Changed(load) => (load, "changed"),
            Staleness::Removed(load) => (load, "was removed"),
        };
        let (node, path, span) = (load.node, load.path.clone(), load.span);
        let line = self.accepted[..(span.start as usize).min(self.accepted.len())]
            .matches('\n')
            .count()
            + 1;
        let names = self.lowerer.names_of(node);
        let mut diagnostic = Diagnostic::error(
            format!(
                "`{}` {what} since it was loaded on line {line}; load it again",
                path.display()
            ),
            span,
        )
        .with_label("loaded here");
        diagnostic = match names.first() {
            Some(name) => diagnostic.with_help(format!(
                "`{name} = load(...)` again reads the file as it is now; statements that do not use `{name}` still work"
            )),
            None => diagnostic
                .with_help("statements that do not use this load still work".to_string()),
        };
        Err(InputError::in_input(
            &self.accepted,
            lowered.offset,
            JobError::RunFailed(Box::new(diagnostic)),
        ))
    }

    fn run(&mut self, lowered: &Lowered) -> Result<Vec<Printed>, InputError> {
        let outcome =
            self.runner
                .borrow_mut()
                .run_or_salvage(&lowered.lowering, lowered.compile_started, 0);
        self.settle_stats();
        let ran = outcome.map_err(|(error, printed)| {
            InputError::in_input(&self.accepted, lowered.offset, error).with_shown(printed)
        })?;
        self.lowerer
            .materialize(&lowered.lowering.handles, &ran.cached);
        Ok(ran.printed)
    }

    /// Empties the chunk cache; nothing is read from it any more.
    fn clear_cache(&mut self) {
        self.runner.borrow_mut().cache.clear();
        self.lowerer.forget_materialized();
    }

    /// The figures of what the input has run so far (its stages, then its outputs)
    /// are the last run's.
    fn settle_stats(&mut self) {
        if let Some(stats) = self.runner.borrow().input_stats() {
            self.last_stats = Some(stats.clone());
        }
    }
}

/// Checks the lowered graph's invariants (debug builds and tests).
fn verify(lowering: &SessionLowering) -> Result<(), InputError> {
    if cfg!(debug_assertions) {
        crate::tileable::verify::verify(&lowering.graph).map_err(|message| {
            InputError::unlocated(JobError::internal(
                "verify tileable graph",
                message.to_string(),
            ))
        })?;
    }
    Ok(())
}

/// The files the input's saves write.
fn saved_paths(lowering: &SessionLowering) -> Vec<PathBuf> {
    lowering.graph.outputs[..lowering.program_outputs]
        .iter()
        .filter_map(|output| match output {
            Output::Save { path, .. } => Some(path.clone()),
            Output::Print { .. } => None,
        })
        .collect()
}

/// Tiling fails only on limits such as too many chunks, which no span explains.
pub fn tile_error(error: JobError) -> String {
    match error {
        JobError::Diagnostics(_) | JobError::RunFailed(_) => {
            "internal compiler error: tiling reported a source error\n".to_string()
        }
        other => format!("{other}\n"),
    }
}

/// The steps of the print handles after the program's outputs.
pub(crate) fn handle_steps(chunks: &ChunkGraph, program_outputs: usize) -> Vec<StepId> {
    chunks.outputs[program_outputs..]
        .iter()
        .flat_map(|output| match output {
            ChunkOutput::Print { items, .. } => {
                items.iter().filter_map(PrintItem::tensor_step).collect()
            }
            ChunkOutput::Save { .. } => Vec::new(),
        })
        .collect()
}

fn with_newline(input: &str) -> String {
    if input.ends_with('\n') {
        input.to_string()
    } else {
        format!("{input}\n")
    }
}

#[cfg(test)]
mod tests;
