//! One REPL session: the growing program (the text of every accepted input), the
//! cache of computed chunks, the figures of the last run, and what one input does.
//!
//! An input is parsed on its own first (syntax errors point into its own text),
//! then lowered after the accepted program ([`lower_session`]); an input that fails
//! to compile is reported and not added. What its outputs need is planned against
//! the cache ([`super::compute`]), run, and shown: prints as `print` shows them,
//! echoed tensors with NumPy's `repr`.

use super::compute::{plan_with_cache, run_with_cache, ChunkCache, SessionKernel, Values};
use super::SOURCE_NAME;
use crate::chunk::{ChunkGraph, ChunkOutput, PrintItem, StepId};
use crate::diagnostics::{render_plain, SourceFile};
use crate::driver::{tile_graph, DriverError, Options};
use crate::lower::session::{lower_session, Members, SessionLowering};
use crate::lower::LowerOptions;
use crate::plan::mapped::map_files_of;
use crate::run::output::shown;
use crate::run::RunStats;
use crate::tileable::TileableId;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::exec::ExecError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// An input lowered after the accepted program.
pub struct Lowered {
    /// The accepted program followed by the input.
    pub text: String,
    /// Where the input starts in `text`.
    pub offset: usize,
    pub lowering: SessionLowering,
    pub compile_started: Instant,
}

/// The state of one session.
pub struct Session {
    /// Every accepted input, each ending with a newline.
    accepted: String,
    pub options: Options,
    pub workers: u32,
    cache: ChunkCache,
    last_stats: Option<RunStats>,
    scope: Vec<(String, Members)>,
    cancel: Arc<AtomicBool>,
}

impl Session {
    pub fn new(options: Options, workers: u32, cancel: Arc<AtomicBool>) -> Session {
        Session {
            accepted: String::new(),
            options,
            workers,
            cache: ChunkCache::default(),
            last_stats: None,
            scope: Vec::new(),
            cancel,
        }
    }

    /// The session's variables and what `NAME.` completes to.
    pub fn scope(&self) -> &[(String, Members)] {
        &self.scope
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
        self.cache.clear();
        self.last_stats = None;
        self.scope.clear();
    }

    /// Parses and lowers `input` after the accepted program; `Err` is the rendered
    /// diagnostics. `Ok(None)` for an input with no statements.
    pub fn lower_input(&self, input: &str) -> Result<Option<Lowered>, String> {
        let compile_started = Instant::now();
        let input = with_newline(input);
        let (alone, diagnostics) = marsc_grammar::parse(&input);
        if !diagnostics.is_empty() {
            return Err(render(&input, &diagnostics));
        }
        if alone.stmts.is_empty() {
            return Ok(None);
        }
        let offset = self.accepted.len();
        let text = format!("{}{input}", self.accepted);
        let (module, diagnostics) = marsc_grammar::parse(&text);
        if !diagnostics.is_empty() {
            return Err(render(&text, &diagnostics));
        }
        let first_new = module
            .stmts
            .iter()
            .position(|stmt| stmt.span.start as usize >= offset)
            .unwrap_or(module.stmts.len());
        let lower_options = LowerOptions {
            chunk_bytes: self.options.chunk_bytes,
            base_dir: self.options.base_dir.clone(),
        };
        let lowering = lower_session(&module, first_new, &lower_options)
            .map_err(|diagnostics| render_in_input(&text, offset, &diagnostics))?;
        if cfg!(debug_assertions) {
            crate::tileable::verify::verify(&lowering.graph)
                .map_err(|message| format!("internal compiler error: {message}\n"))?;
        }
        Ok(Some(Lowered {
            text,
            offset,
            lowering,
            compile_started,
        }))
    }

    /// Runs one input of statements, writing what it shows to `out`; an error is the
    /// text to show on stderr.
    pub fn statements(&mut self, input: &str) -> Result<String, String> {
        // A Ctrl-C from before this input (one that cancelled the last run, or one
        // pressed while nothing ran) must not cancel this one; one pressed from now
        // on, while compiling or running, does.
        self.cancel.store(false, Ordering::SeqCst);
        let Some(lowered) = self.lower_input(input)? else {
            return Ok(String::new());
        };
        // It compiled: it is part of the program now, even if running it fails.
        self.accepted = lowered.text.clone();
        self.scope = lowered.lowering.scope.clone();
        if lowered.lowering.program_outputs == 0 {
            return Ok(String::new());
        }
        self.run(&lowered)
    }

    fn run(&mut self, lowered: &Lowered) -> Result<String, String> {
        let lowering = &lowered.lowering;
        let chunks = tile_graph(&lowering.graph).map_err(tile_error)?;
        let keep_steps = handle_steps(&chunks, lowering.program_outputs);
        // Subtasks are placed for this session's workers, as a script's are for its run.
        let options = Options {
            workers: self.options.workers.or(Some(self.workers)),
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
        map_files_of(
            planned
                .plan
                .subtasks
                .iter()
                .flat_map(|subtask| &subtask.ops)
                .filter_map(|op| match &op.kernel {
                    SessionKernel::Run(kernel) => Some(kernel),
                    SessionKernel::Cached(_) => None,
                }),
            &lowering.graph,
        )
        .map_err(|diagnostic| render_in_input(&lowered.text, lowered.offset, &[*diagnostic]))?;
        let subtasks = planned.plan.subtasks.len() as u64;
        let jit = planned.jit.clone();
        let compile_seconds = lowered.compile_started.elapsed().as_secs_f64();
        let (values, exec) = run_with_cache(
            &chunks,
            planned,
            self.workers,
            Arc::clone(&self.cancel),
            &mut self.cache,
        )
        .map_err(|error| run_error(lowered, &error))?;
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

/// Tiling fails only on limits such as too many chunks, which no span explains.
pub fn tile_error(error: DriverError) -> String {
    match error {
        DriverError::Runtime(message) | DriverError::NotSupported(message) => {
            format!("error: {message}\n")
        }
        DriverError::Diagnostics(_) | DriverError::RunFailed(_) => {
            "internal compiler error: tiling reported a source error\n".to_string()
        }
    }
}

/// A failed run told in terms of the source: the failing subtask's label is the
/// tileable it computes.
fn run_error(lowered: &Lowered, error: &ExecError) -> String {
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
            render_in_input(&lowered.text, lowered.offset, &[diagnostic])
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
