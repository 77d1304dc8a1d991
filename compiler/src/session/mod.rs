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
pub mod files;
pub mod session_kernel;
pub mod spans;

use crate::chunk::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::diagnostics::{render_plain, SourceFile};
use crate::driver::{tile_graph, Options};
use crate::error::JobError;
use crate::lower::incremental::{Members, SessionLowerer, SessionLowering};
use crate::lower::LowerOptions;
use crate::run::execute::PlanFailure;
use crate::run::output::shown;
use crate::run::{CancelToken, RunOptions, RunStats};
use crate::tileable::{Output, TileableId};
use compute::{plan_with_cache, run_with_cache, ChunkCache, Values};
use files::{LoadedFiles, Staleness};
use marsc_grammar::ast::Module;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::exec::ExecError;
use spans::shift_module;
use std::path::PathBuf;
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
    cache: ChunkCache,
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
        Session {
            accepted: String::new(),
            options,
            run_options,
            lowerer: SessionLowerer::new(lower_options),
            cache: ChunkCache::default(),
            files: LoadedFiles::default(),
            last_stats: None,
        }
    }

    /// The session's variables and what `NAME.` completes to, sorted (built when
    /// asked: a piped session never needs it).
    pub fn scope(&self) -> Vec<(String, Members)> {
        self.lowerer.scope()
    }

    /// The figures of the last run, with the size of the cache.
    pub fn stats_text(&self) -> String {
        match &self.last_stats {
            Some(stats) => format!(
                "{stats}\njit: {} kernels compiled in {:.3}s\ncached: {} chunks, {} bytes",
                stats.kernels,
                stats.jit_seconds,
                self.cache.len(),
                self.cache.bytes()
            ),
            None => "no run yet".to_string(),
        }
    }

    /// Forgets every statement, value and figure.
    pub fn reset(&mut self) {
        self.accepted.clear();
        self.lowerer.reset();
        self.cache.clear();
        self.files.clear();
        self.last_stats = None;
    }

    /// Parses `input` on its own, with spans into the session's text as it would be
    /// with the input appended; `Ok(None)` for an input with no statements.
    fn parse_input(&self, input: &str) -> Result<Option<(String, Module)>, String> {
        let input = with_newline(input);
        let (mut module, diagnostics) = marsc_grammar::parse(&input);
        if !diagnostics.is_empty() {
            return Err(render(&input, &diagnostics));
        }
        if module.stmts.is_empty() {
            return Ok(None);
        }
        let offset = u32::try_from(self.accepted.len() + input.len())
            .map(|_| self.accepted.len() as u32)
            .map_err(|_| {
                "error: the session's statements exceed 4 GiB of text; `:reset` starts a new one\n"
                    .to_string()
            })?;
        shift_module(&mut module, offset);
        Ok(Some((input, module)))
    }

    /// Lowers `input` after the accepted program without keeping it (`:emit`): the
    /// session's text with the input, and the lowering; `Err` is the rendered
    /// diagnostics.
    pub fn lower_trial(&mut self, input: &str) -> Result<Option<(String, Lowered)>, String> {
        let compile_started = Instant::now();
        let Some((input, module)) = self.parse_input(input)? else {
            return Ok(None);
        };
        let offset = self.accepted.len();
        let text = format!("{}{input}", self.accepted);
        let lowering = self
            .lowerer
            .trial(&module)
            .map_err(|diagnostics| render_in_input(&text, offset, &diagnostics))?;
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

    /// Runs one input of statements, writing what it shows to `out`; an error is the
    /// text to show on stderr.
    pub fn statements(&mut self, input: &str) -> Result<String, String> {
        self.statements_with(input, CancelToken::new())
    }

    /// [`statements`](Self::statements) with the input's own cancel token: whoever
    /// holds a clone (the terminal's Ctrl-C) cancels the input while it runs. A token
    /// of an earlier input (one a Ctrl-C cancelled) cancels nothing here.
    pub fn statements_with(&mut self, input: &str, cancel: CancelToken) -> Result<String, String> {
        self.run_options.cancel = cancel;
        let compile_started = Instant::now();
        let Some((input, module)) = self.parse_input(input)? else {
            return Ok(String::new());
        };
        let offset = self.accepted.len();
        let first_node = self.lowerer.node_count();
        let lowering = match self.lowerer.accept(&module) {
            Ok(lowering) => lowering,
            Err(diagnostics) => {
                return Err(render_in_input(
                    &format!("{}{input}", self.accepted),
                    offset,
                    &diagnostics,
                ))
            }
        };
        // It compiled: it is part of the program now, even if running it fails.
        self.accepted.push_str(&input);
        if self.files.record(self.lowerer.loads_since(first_node)) {
            // Chunk keys name a load by path: another version's chunks must go.
            self.cache.clear();
        }
        verify(&lowering)?;
        if lowering.program_outputs == 0 {
            return Ok(String::new());
        }
        let lowered = Lowered {
            offset,
            lowering,
            compile_started,
        };
        self.check_files(&lowered, &[])?;
        let shown = self.run(&lowered);
        // A file that changed while the run read it may have given it mixed data.
        let saved = saved_paths(&lowered.lowering);
        if let Err(message) = self.check_files(&lowered, &saved) {
            self.cache.clear();
            return Err(message);
        }
        shown
    }

    /// Fails when a load the input needs no longer has the file it loaded (files in
    /// `saved`, which the input itself writes, are expected to change).
    fn check_files(&mut self, lowered: &Lowered, saved: &[PathBuf]) -> Result<(), String> {
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
        Err(render_in_input(
            &self.accepted,
            lowered.offset,
            &[diagnostic],
        ))
    }

    fn run(&mut self, lowered: &Lowered) -> Result<String, String> {
        let lowering = &lowered.lowering;
        let chunks = tile_graph(&lowering.graph).map_err(tile_error)?;
        let keep_steps = handle_steps(&chunks, lowering.program_outputs);
        // Subtasks are placed for this session's workers, as a script's are for its run.
        let options = Options {
            workers: self.options.workers.or(Some(self.run_options.workers)),
            ..self.options.clone()
        };
        let planned = plan_with_cache(
            &chunks,
            lowering.program_outputs,
            &keep_steps,
            &self.cache,
            &options,
        )
        .map_err(|message| format!("internal compiler error: {message}\n"))?;
        let subtasks = planned.plan.subtasks.len() as u64;
        let jit = planned.jit.clone();
        let compile_seconds = lowered.compile_started.elapsed().as_secs_f64();
        let (values, exec) = run_with_cache(
            &chunks,
            &lowering.graph,
            planned,
            &self.run_options,
            &mut self.cache,
        )
        .map_err(|failure| match failure {
            PlanFailure::Failed(error) => run_error(&self.accepted, lowered, &error),
            PlanFailure::Refused(JobError::RunFailed(diagnostic)) => {
                render_in_input(&self.accepted, lowered.offset, &[*diagnostic])
            }
            PlanFailure::Refused(error) => format!("{error}\n"),
        })?;
        self.last_stats = Some(RunStats {
            tileables: lowering.graph.len() as u64,
            chunks: chunks.num_chunks() as u64,
            subtasks,
            kernels: jit.kernels,
            jit_seconds: jit.jit_seconds,
            compile_seconds,
            exec,
        });
        show_outputs(&chunks, lowering, &values)
    }
}

/// Checks the lowered graph's invariants (debug builds and tests).
fn verify(lowering: &SessionLowering) -> Result<(), String> {
    if cfg!(debug_assertions) {
        crate::tileable::verify::verify(&lowering.graph)
            .map_err(|message| format!("internal compiler error: {message}\n"))?;
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

/// A failed run told in terms of the source: the failing subtask's label is the
/// tileable it computes.
fn run_error(text: &str, lowered: &Lowered, error: &ExecError) -> String {
    match error {
        ExecError::Cancelled => "interrupted\n".to_string(),
        ExecError::SubtaskFailed { label, message, .. } => {
            let graph = &lowered.lowering.graph;
            let tileable = TileableId(*label);
            if tileable.index() >= graph.len() {
                return format!("error: {message}\n");
            }
            let diagnostic = Diagnostic::error(message.clone(), graph.node(tileable).span)
                .with_label("while computing this");
            render_in_input(text, lowered.offset, &[diagnostic])
        }
        other => format!("error: {other}\n"),
    }
}

/// The steps of the print handles after the program's outputs.
fn handle_steps(chunks: &ChunkGraph, program_outputs: usize) -> Vec<StepId> {
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

/// The text of the program's outputs: prints as `str`, echoes as `repr`.
fn show_outputs(
    chunks: &ChunkGraph,
    lowering: &SessionLowering,
    values: &Values,
) -> Result<String, String> {
    let mut text = String::new();
    for (index, output) in chunks.outputs[..lowering.program_outputs]
        .iter()
        .enumerate()
    {
        let ChunkOutput::Print { items, sep, end } = output else {
            continue;
        };
        let echo = lowering.tensor_echoes.contains(&index);
        for (position, item) in items.iter().enumerate() {
            if position > 0 {
                text.push_str(sep);
            }
            match item {
                PrintItem::Text(value) => text.push_str(value),
                PrintItem::Tensor(_) | PrintItem::Summary { .. } => {
                    let value = shown(chunks, values, item).map_err(|e| format!("{e}\n"))?;
                    text.push_str(&if echo { value.repr() } else { value.str() });
                }
            }
        }
        text.push_str(end);
    }
    Ok(text)
}

fn with_newline(input: &str) -> String {
    if input.ends_with('\n') {
        input.to_string()
    } else {
        format!("{input}\n")
    }
}

fn render(text: &str, diagnostics: &[Diagnostic]) -> String {
    render_plain(
        &SourceFile {
            name: SOURCE_NAME,
            text,
        },
        diagnostics,
    )
}

/// Renders diagnostics against the input's own text when they point into it (the
/// usual case), else against the whole session's text.
fn render_in_input(text: &str, offset: usize, diagnostics: &[Diagnostic]) -> String {
    if diagnostics
        .iter()
        .any(|diagnostic| (diagnostic.span.start as usize) < offset)
    {
        return render(text, diagnostics);
    }
    let shift = |span: Span| Span::new(span.start as usize - offset, span.end as usize - offset);
    let shifted: Vec<Diagnostic> = diagnostics
        .iter()
        .map(|diagnostic| {
            let mut shifted = diagnostic.clone();
            shifted.span = shift(diagnostic.span);
            // A label pointing at an earlier input has no place in this one.
            shifted.secondary = diagnostic
                .secondary
                .iter()
                .filter(|(span, _)| span.start as usize >= offset)
                .map(|(span, label)| (shift(*span), label.clone()))
                .collect();
            shifted
        })
        .collect();
    render(&text[offset..], &shifted)
}

#[cfg(test)]
mod tests;
