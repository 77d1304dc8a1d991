//! The one driver that orders the compiler's passes: parse → lower → tile → form
//! subtasks → assign priorities → plan → JIT, verifying each IR after the pass that
//! built it and serving `--emit`. Running is not its business: [`crate::job`]
//! compiles through it and runs through [`crate::run`], which needs only the
//! [`Compiled`] program (the arrows go one way: job → run → driver).

use crate::chunk::{ChunkGraph, ChunkId};
use crate::error::InternalError;
pub use crate::error::JobError;
use crate::fuse::{fuse, fuse_needed, Fusion};
use crate::lower::{lower_script, needs_stages_error, LowerFailure, LowerOptions};
use crate::subtask::{
    assign_workers, schedule_subtasks, AssignPolicy, OrderPolicy, Placement, SubtaskGraph,
};
use crate::tile::{tile, TileOptions};
use crate::tileable::TileableGraph;
use marsc_grammar::ast::Module;
use marsc_runtime::chunk_kernel::Kernel;
use marsc_runtime::jit_rewrite::JitSummary;
use marsc_runtime::plan::Plan;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Everything that shapes a compilation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Byte budget of an automatically sized chunk.
    pub chunk_bytes: u64,
    /// Directory that relative `load`/`save` paths are resolved against.
    pub base_dir: PathBuf,
    /// The directory `load`/`save` paths must stay inside after resolving symlinks
    /// (`marsc serve --root`); a path escaping it is a compile-time error. `None`
    /// (the CLI, the REPL) allows any path.
    pub root: Option<PathBuf>,
    /// How subtasks are placed on workers (the scheduling pass by default).
    pub placement: Placement,
    /// Compile eligible subtasks to native code (`--no-jit` turns it off).
    pub jit: bool,
    /// How far chunk operations are fused into subtasks (`--no-fuse`: not at all).
    pub fusion: Fusion,
    /// How the scheduling pass spreads initial subtasks over workers.
    pub assign: AssignPolicy,
    /// How the scheduling pass orders subtasks.
    pub order: OrderPolicy,
    /// The worker count the scheduling pass assigns for; `None` leaves placement to
    /// the executor (a run fills it in with its own worker count).
    pub workers: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            chunk_bytes: 128 << 20,
            base_dir: PathBuf::from("."),
            root: None,
            placement: Placement::default(),
            jit: true,
            fusion: Fusion::default(),
            assign: AssignPolicy::default(),
            order: OrderPolicy::default(),
            workers: None,
        }
    }
}

/// A stage whose IR `--emit` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The syntax tree.
    Ast,
    /// The TileableGraph: one node per tensor operation.
    Tileable,
    /// The ChunkGraph: every tensor split into chunks.
    Chunk,
    /// The SubtaskGraph: fused groups of chunk operations with workers and priorities.
    Subtask,
    /// The generated Cranelift IR of every kernel.
    Kernels,
    /// Every stage, each under an `after <pass>` heading.
    All,
}

/// How `--emit` renders a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitFormat {
    /// A deterministic text dump.
    Text,
    /// A Graphviz digraph (`dot -Tsvg`).
    Dot,
}

/// A script compiled down to the plan the runtime executes, with every IR on the
/// way (for dumps, and to explain run-time errors in terms of the source).
pub struct Compiled {
    pub module: Module,
    pub tileables: TileableGraph,
    pub chunks: ChunkGraph,
    pub subtasks: SubtaskGraph,
    pub plan: Arc<Plan<Kernel>>,
    /// Wall time of compiling, in seconds.
    pub compile_seconds: f64,
    /// What the JIT compiled (all zero with `--no-jit`).
    pub jit: JitSummary,
    /// The options it was compiled with (a failed run plans again with them the
    /// outputs that precede the failure).
    pub options: Options,
    /// Each pass's time and the resident set after it.
    pub passes: PassFigures,
}

/// What each compiler pass took: its wall time, and the process's resident set once
/// it is done (a sample, not a peak; glibc seldom gives memory back, so the growth
/// from one pass to the next is about what the pass built and kept, its IR, plus its
/// scratch). In debug builds a pass's time includes its IR's verifier.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassFigures(pub Vec<PassFigure>);

/// One pass of [`PassFigures`].
#[derive(Clone, Debug, PartialEq)]
pub struct PassFigure {
    pub pass: &'static str,
    pub seconds: f64,
    pub rss_bytes: u64,
}

/// Seconds a pass must take before its freed memory is given back: a shorter pass
/// freed little, and a stage of a small loop should not pay a heap walk per pass.
const GIVE_BACK_AFTER: f64 = 0.01;

impl PassFigures {
    /// Runs `pass`, recording it as `name`.
    ///
    /// After a pass longer than [`GIVE_BACK_AFTER`] (one over a large graph), the
    /// memory it freed goes back to the system before the resident set is read, so
    /// the next pass's IR does not pile up on this one's scratch.
    pub fn time<T>(&mut self, name: &'static str, pass: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let out = pass();
        let seconds = started.elapsed().as_secs_f64();
        if seconds >= GIVE_BACK_AFTER {
            marsc_runtime::huge_alloc::give_back_freed();
        }
        self.0.push(PassFigure {
            pass: name,
            seconds,
            rss_bytes: marsc_runtime::exec::process_status_bytes("VmRSS:"),
        });
        out
    }
}

/// Runs `pass`, recording it as `name` in `passes` if there are any.
fn timed<T>(
    passes: &mut Option<&mut PassFigures>,
    name: &'static str,
    pass: impl FnOnce() -> T,
) -> T {
    match passes {
        Some(passes) => passes.time(name, pass),
        None => pass(),
    }
}

/// Parses a script, reporting every syntax error it can.
pub fn parse(text: &str) -> Result<Module, JobError> {
    let (module, diagnostics) = marsc_grammar::parse(text);
    if diagnostics.is_empty() {
        Ok(module)
    } else {
        Err(JobError::Diagnostics(diagnostics))
    }
}

/// Parses and lowers a script to its TileableGraph, verified.
///
/// A syntax error (an unsupported statement among them) does not hide the errors
/// after it: the statements that parsed are lowered too, and all the diagnostics
/// are reported together, in source order.
pub fn tileable(text: &str, options: &Options) -> Result<(Module, TileableGraph), JobError> {
    tileable_timed(text, options, None)
}

/// [`tileable`], timing `parse` and `lower` into `passes` when given (reading the
/// resident set costs a `/proc` read per pass, which a stage or a REPL input
/// should not pay for figures nobody asked for).
fn tileable_timed(
    text: &str,
    options: &Options,
    mut passes: Option<&mut PassFigures>,
) -> Result<(Module, TileableGraph), JobError> {
    let (module, syntax_errors) = timed(&mut passes, "parse", || marsc_grammar::parse(text));
    let lower_options = LowerOptions {
        chunk_bytes: options.chunk_bytes,
        base_dir: options.base_dir.clone(),
        root: options.root.clone(),
    };
    let lowered = timed(&mut passes, "lower", || {
        lower_script(&module, &lower_options)
    });
    if !syntax_errors.is_empty() {
        let mut all = syntax_errors;
        if let Err(LowerFailure::Diagnostics(more)) = lowered {
            all.extend(more);
        }
        all.sort_by_key(|diagnostic| diagnostic.span.start);
        return Err(JobError::Diagnostics(all));
    }
    let graph = lowered.map_err(|failure| match failure {
        LowerFailure::Diagnostics(diagnostics) => JobError::Diagnostics(diagnostics),
        LowerFailure::NeedsStages(span) => {
            JobError::NeedsStages(Box::new(needs_stages_error(span)))
        }
    })?;
    verify_ir("tileable", || crate::tileable::verify::verify(&graph));
    Ok((module, graph))
}

/// Parses, lowers and tiles a script to its ChunkGraph, verified.
pub fn chunk(text: &str, options: &Options) -> Result<(TileableGraph, ChunkGraph), JobError> {
    let (_, graph) = tileable(text, options)?;
    let chunks = tile_graph(&graph)?;
    Ok((graph, chunks))
}

/// Tiles a lowered graph to its ChunkGraph, verified (the REPL lowers on its own).
pub fn tile_graph(graph: &TileableGraph) -> Result<ChunkGraph, JobError> {
    let chunks =
        tile(graph, &TileOptions::default()).map_err(|error| JobError::Limit(error.to_string()))?;
    verify_ir("chunk", || crate::chunk::verify(&chunks));
    Ok(chunks)
}

/// Compiles a script to its SubtaskGraph, verified: the chunk operations an output
/// needs, fused into subtasks as `options.fusion` says, then scheduled (priorities
/// and workers).
pub fn subtasks(
    text: &str,
    options: &Options,
) -> Result<(TileableGraph, ChunkGraph, SubtaskGraph), JobError> {
    let (graph, chunks) = chunk(text, options)?;
    let subtasks = subtask_graph(&chunks, options)?;
    Ok((graph, chunks, subtasks))
}

/// Fuses a ChunkGraph's operations into subtasks and runs the scheduling passes
/// (the REPL tiles on its own and comes in here).
pub fn subtask_graph(chunks: &ChunkGraph, options: &Options) -> Result<SubtaskGraph, JobError> {
    subtask_graph_timed(chunks, options, None)
}

/// [`subtask_graph`], timing `fuse` and `schedule` into `passes` when given.
fn subtask_graph_timed(
    chunks: &ChunkGraph,
    options: &Options,
    mut passes: Option<&mut PassFigures>,
) -> Result<SubtaskGraph, JobError> {
    let mut subtasks = timed(&mut passes, "fuse", || fuse(chunks, options.fusion));
    let workers = match options.placement {
        Placement::Scheduled => options.workers,
        Placement::Executor | Placement::ChunkIndex => None,
    };
    timed(&mut passes, "schedule", || {
        schedule_subtasks(
            &mut subtasks,
            chunks,
            options.order,
            options.assign,
            workers,
        )?;
        assign_workers(&mut subtasks, chunks, options.placement);
        verify_ir("subtask", || crate::subtask::verify(&subtasks, chunks));
        Ok::<(), JobError>(())
    })?;
    Ok(subtasks)
}

/// The passes after tiling for part of a program: the chunks marked in `needed`
/// (with `results` handed back) fused, scheduled for `options.workers`, placed,
/// planned and, unless `--no-jit`, JIT-compiled. The REPL plans what its cache lacks
/// this way, and a failed run the outputs that precede the failing statement.
pub fn plan_needed(
    chunks: &ChunkGraph,
    needed: &[bool],
    results: Vec<ChunkId>,
    options: &Options,
) -> Result<(SubtaskGraph, Plan<Kernel>, JitSummary), InternalError> {
    let mut subtasks = fuse_needed(chunks, needed, results, options.fusion);
    schedule_subtasks(
        &mut subtasks,
        chunks,
        options.order,
        options.assign,
        options.workers,
    )?;
    assign_workers(&mut subtasks, chunks, options.placement);
    let mut plan = crate::plan::build_plan(&subtasks, chunks)?;
    let jit = if options.jit {
        crate::plan::jit::compile_kernels(&mut plan, chunks)?
    } else {
        JitSummary::default()
    };
    Ok((subtasks, plan, jit))
}

/// Compiles a script all the way to the runtime's plan.
pub fn compile(text: &str, options: &Options) -> Result<Compiled, JobError> {
    compile_checked(text, options, |_| Ok(()), &|| false)
}

/// [`compile`], with `check_saves` run on the TileableGraph before tiling (a run
/// refuses saves that cannot fit before building and planning a huge graph). Once
/// `cancelled` says so, the compile ends between two passes with
/// [`JobError::Cancelled`] (compiling tens of millions of chunks takes seconds).
pub(crate) fn compile_checked(
    text: &str,
    options: &Options,
    check_saves: impl Fn(&TileableGraph) -> Result<(), JobError>,
    cancelled: &dyn Fn() -> bool,
) -> Result<Compiled, JobError> {
    let started = Instant::now();
    // Freed arrays of the passes go back to the system rather than into the
    // allocator's cache of large blocks (see `keep_nothing`).
    let _keep_nothing = marsc_runtime::huge_alloc::keep_nothing();
    let mut passes = PassFigures::default();
    let go_on = || match cancelled() {
        true => Err(JobError::Cancelled),
        false => Ok(()),
    };
    go_on()?;
    let (module, tileables) = tileable_timed(text, options, Some(&mut passes))?;
    check_saves(&tileables)?;
    go_on()?;
    let chunks = passes.time("tile", || tile_graph(&tileables))?;
    go_on()?;
    let subtasks = subtask_graph_timed(&chunks, options, Some(&mut passes))?;
    go_on()?;
    let mut plan = passes.time("plan", || {
        let plan = crate::plan::build_plan(&subtasks, &chunks)?;
        verify_ir("plan", || plan.check());
        Ok::<_, JobError>(plan)
    })?;
    go_on()?;
    let jit = passes.time("jit", || {
        let jit = if options.jit {
            crate::plan::jit::compile_kernels(&mut plan, &chunks)?
        } else {
            JitSummary::default()
        };
        verify_ir("jit plan", || plan.check());
        Ok::<_, JobError>(jit)
    })?;
    Ok(Compiled {
        module,
        tileables,
        chunks,
        subtasks,
        plan: Arc::new(plan),
        compile_seconds: started.elapsed().as_secs_f64(),
        jit,
        options: options.clone(),
        passes,
    })
}

/// An IR that fails verification is a compiler bug, never a user error; stop loudly
/// in debug builds and tests, where the check runs (a release build does not run
/// it: on a stage of a small loop it cost as much as tiling).
fn verify_ir<E: std::fmt::Display>(stage: &str, verify: impl FnOnce() -> Result<(), E>) {
    if cfg!(debug_assertions) {
        if let Err(message) = verify() {
            panic!("internal compiler error: the {stage} IR failed verification: {message}");
        }
    }
}

/// Compiles the script as far as the compiler goes, reporting every static error.
///
/// A script that runs in stages is checked up to the first tensor value it needs
/// (what follows depends on that value).
pub fn check(text: &str, options: &Options) -> Result<(), JobError> {
    match chunk(text, options) {
        Ok(_) | Err(JobError::NeedsStages(_)) => Ok(()),
        Err(error) => Err(error),
    }
}

/// Compiles up to `stage` and renders its IR.
pub fn emit(
    text: &str,
    stage: Stage,
    format: EmitFormat,
    options: &Options,
) -> Result<String, JobError> {
    match stage {
        Stage::Ast => {
            let module = parse(text)?;
            Ok(match format {
                EmitFormat::Text => marsc_grammar::dump_ast(&module, text),
                EmitFormat::Dot => marsc_grammar::dump_ast_dot(&module),
            })
        }
        Stage::Tileable => {
            let (_, graph) = tileable(text, options)?;
            Ok(render_ir(stage, format, text, &graph, None, None))
        }
        Stage::All => {
            let (graph, chunks, subtasks) = subtasks(text, options)?;
            let lowered = render_ir(stage, format, text, &graph, Some(&chunks), Some(&subtasks));
            Ok(match format {
                EmitFormat::Text => {
                    let module = parse(text)?;
                    format!(
                        "after parse\n{}\n{lowered}",
                        marsc_grammar::dump_ast(&module, text)
                    )
                }
                EmitFormat::Dot => lowered,
            })
        }
        Stage::Chunk => {
            let (graph, chunks) = chunk(text, options)?;
            Ok(render_ir(stage, format, text, &graph, Some(&chunks), None))
        }
        Stage::Subtask => {
            let (graph, chunks, subtasks) = subtasks(text, options)?;
            Ok(render_ir(
                stage,
                format,
                text,
                &graph,
                Some(&chunks),
                Some(&subtasks),
            ))
        }
        Stage::Kernels => {
            if !options.jit {
                return Err(JobError::NotSupported(
                    "--emit kernels with --no-jit (there are no kernels)".to_string(),
                ));
            }
            let compiled = compile(text, options)?;
            Ok(marsc_runtime::jit_rewrite::kernel_listing(&compiled.plan))
        }
    }
}

/// The dump of `stage` from the IRs compiled for it (`chunks` and `subtasks` when the
/// stage goes that far): what `--emit` prints after parsing, for a script and for
/// each stage of a script that runs in stages. `Stage::All` is every pass after
/// `parse`; `Stage::Ast` and `Stage::Kernels` are rendered by their callers.
pub(crate) fn render_ir(
    stage: Stage,
    format: EmitFormat,
    source: &str,
    graph: &TileableGraph,
    chunks: Option<&ChunkGraph>,
    subtasks: Option<&SubtaskGraph>,
) -> String {
    let chunk_text = || chunks.map(ToString::to_string).unwrap_or_default();
    let subtask_text = || match (subtasks, chunks) {
        (Some(subtasks), Some(chunks)) => subtasks.with_chunks(chunks).to_string(),
        _ => String::new(),
    };
    match (stage, format) {
        (Stage::Tileable, EmitFormat::Text) => graph.with_source(source).to_string(),
        (Stage::Tileable | Stage::All, EmitFormat::Dot) => crate::tileable::dot::to_dot(graph),
        (Stage::Chunk, EmitFormat::Text) => chunk_text(),
        (Stage::Chunk, EmitFormat::Dot) => {
            chunks.map(crate::chunk::dot::to_dot).unwrap_or_default()
        }
        (Stage::Subtask, EmitFormat::Text) => subtask_text(),
        (Stage::Subtask, EmitFormat::Dot) => match (subtasks, chunks) {
            (Some(subtasks), Some(chunks)) => crate::subtask::dot::to_dot(subtasks, chunks),
            _ => String::new(),
        },
        (Stage::All, EmitFormat::Text) => format!(
            "after lower\n{}\nafter tile\n{}\nafter subtask\n{}",
            graph.with_source(source),
            chunk_text(),
            subtask_text()
        ),
        (Stage::Ast | Stage::Kernels, _) => String::new(),
    }
}
