//! Lowering: a parsed `.mt` script to a [`TileableGraph`] in which every tensor has
//! its shape, dtype and chunk splits.
//!
//! The script is interpreted statement by statement over compile-time [`Value`]s:
//! Python scalars fold as Python computes them, library calls bind their arguments
//! against [`library::LIBRARY`] and add graph nodes, and `print`/`save` add the
//! graph's outputs. Every static error is reported: an expression that fails becomes
//! `Value::Poison`, which silences errors that would only repeat it, and lowering
//! goes on with the next statement. Afterwards the graph is pruned to what the
//! outputs need.
//!
//! Random numbers: each `random.*` call gets a `stream` (its call number in program
//! order, from 0) and the current `seed`, which is 0 until `random.seed(n)` changes it.

#![allow(
    clippy::result_large_err,
    reason = "a `Diagnostic` travels up a few frames once per user error; boxing it on \
              every error path would only add noise"
)]

mod attributes;
mod bind;
mod builtins;
mod call;
mod choose;
mod composed;
mod control;
mod convert;
mod covariance;
mod creation;
mod decompose;
mod dtype_args;
mod elementwise;
mod expr;
mod fold;
mod format_spec;
mod fstring;
mod full_fill;
pub mod graph_size;
mod histogram;
pub mod incremental;
mod indexing;
mod inplace;
mod iteration;
mod joining;
mod library;
mod linalg;
mod literal;
mod multi_index;
mod names;
mod nodes;
mod norm;
mod not_yet;
mod numpy_names;
mod objects;
mod output;
mod products;
mod pyfmt;
mod random;
mod reduction;
mod root;
mod select;
mod setitem;
mod shape_ops;
mod sort;
pub mod stage;
mod statistics;
mod structure;
mod value;
mod views;

#[cfg(test)]
mod tests;

use crate::tileable::prune::prune;
use crate::tileable::{TileableGraph, TileableId};
use marsc_grammar::ast::Module;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::paths::FileIdentity;
use objects::{Binding, Object};
use std::collections::HashMap;
use std::path::PathBuf;
use value::Value;

/// Options that change what lowering produces.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// Byte budget of one automatic chunk (`--chunk-bytes`).
    pub chunk_bytes: u64,
    /// What relative `load()`/`save()` paths are relative to. NumPy resolves them
    /// against the working directory, which is the default `"."`.
    pub base_dir: PathBuf,
    /// The directory `load()`/`save()` paths must stay inside (`marsc serve
    /// --root`); `None` allows any path.
    pub root: Option<PathBuf>,
}

impl std::default::Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            chunk_bytes: 128 << 20,
            base_dir: PathBuf::from("."),
            root: None,
        }
    }
}

/// Lowers a whole script. On failure, returns every static error in source order.
///
/// Random tensors are numbered in program order (`stream` 0, 1, ...) and use the
/// seed of the last `random.seed(n)` before them, **0 when the script never calls
/// `seed`**, so a script's random values are always reproducible.
pub fn lower(module: &Module, options: &LowerOptions) -> Result<TileableGraph, Vec<Diagnostic>> {
    lower_script(module, options).map_err(|failure| match failure {
        LowerFailure::Diagnostics(diagnostics) => diagnostics,
        LowerFailure::NeedsStages(span) => vec![needs_stages_error(span)],
    })
}

/// Why a script did not lower to one graph.
#[derive(Debug)]
pub enum LowerFailure {
    /// Its static errors, in source order.
    Diagnostics(Vec<Diagnostic>),
    /// No error up to here, where it needs a tensor's value: it runs in stages
    /// ([`stage`]).
    NeedsStages(Span),
}

/// The error for a script that needs a tensor's value where it cannot run in stages
/// (`--emit`, a caller of [`lower`]).
pub fn needs_stages_error(span: Span) -> Diagnostic {
    Diagnostic::error(
        "not supported yet: showing a script that runs in stages",
        span,
    )
    .with_label("the script needs this tensor's value to go on")
    .with_note("a run computes it first, then compiles the rest of the script")
}

/// [`lower`], telling a script that must run in stages apart from a wrong one.
pub fn lower_script(
    module: &Module,
    options: &LowerOptions,
) -> Result<TileableGraph, LowerFailure> {
    let mut lowerer = Lowerer::new(options);
    let mut unsupported = module.unsupported_bindings.iter().peekable();
    for stmt in &module.stmts {
        // A name an unsupported (already reported) statement would have bound is
        // poison from there on, so its uses are not reported again as unknown.
        while let Some(name) = unsupported.next_if(|name| name.span.start < stmt.span.start) {
            lowerer
                .scope
                .insert(name.name.clone(), objects::Binding::Plain(Value::Poison));
        }
        if lowerer.halted {
            break;
        }
        lowerer.statement(stmt);
    }
    match lowerer.needs_stages {
        Some(span) if lowerer.diagnostics.is_empty() => Err(LowerFailure::NeedsStages(span)),
        _ => lowerer.finish().map_err(LowerFailure::Diagnostics),
    }
}

/// A result whose error is one diagnostic (the expression then becomes `Poison`).
pub(crate) type LowerResult<T> = Result<T, Diagnostic>;

/// The state of lowering one script.
// Clone: the REPL checkpoints it (without the graph) before each input.
#[derive(Clone)]
pub(crate) struct Lowerer<'o> {
    options: &'o LowerOptions,
    graph: TileableGraph,
    /// What each name denotes; tensors are objects, see [`objects`].
    scope: HashMap<String, Binding>,
    /// Every tensor object, indexed by `ObjectId`.
    objects: Vec<Object>,
    diagnostics: Vec<Diagnostic>,
    /// The seed set by the last `random.seed(n)`.
    seed: u64,
    /// How many random tensors have been created so far.
    random_calls: u64,
    /// The `RandomState` whose method is being called: its seed and draws replace
    /// the module's.
    stream_override: Option<std::rc::Rc<value::RandomStream>>,
    /// The files saved so far, by identity (see `output.rs`).
    saved: HashMap<FileIdentity, output::SavedFile>,
    /// The calls of `def` functions in progress, outermost first.
    frames: Vec<control::Frame>,
    /// How many loops are open in the running function (or the script).
    loops: u32,
    /// Loop iterations unrolled so far, against [`control::MAX_ITERATIONS`].
    iterations: u64,
    /// In-place updates made inside function calls (root object index, where), while
    /// a call is running: how a call is seen to change its caller's tensors.
    updates_in_calls: Vec<(usize, Span)>,
    /// The expression being evaluated is a whole statement's call (`f(x)`,
    /// `y = f(x)`, `return f(x)`), after which nothing of the statement is left to
    /// read: a call there may update its caller's tensors in place.
    whole_statement_call: bool,
    /// Runs a stage when the program needs a tensor's value (see [`stage`]);
    /// `None` for a script lowered as a whole.
    stager: Option<stage::SharedStager<'o>>,
    /// Where a script lowered as a whole first needed a tensor's value: it must run
    /// in stages.
    needs_stages: Option<Span>,
    /// Lowering stopped (a stage failed, or a value was needed after an error):
    /// every later statement is skipped.
    halted: bool,
    /// Indexes of the outputs that echo a tensor (REPL expression statements).
    echoes: Vec<usize>,
    /// Tensors whose chunks the session has cached, with their step keys: a run
    /// reads them from the cache, and tiles and plans nothing behind them.
    materialized: HashMap<TileableId, u64>,
    /// Intermediate tensors that later stages read again (a distributed sort's
    /// sorted chunks): each run keeps their chunks, as it keeps variables'.
    kept: Vec<TileableId>,
}

impl<'o> Lowerer<'o> {
    fn new(options: &'o LowerOptions) -> Self {
        Lowerer {
            options,
            graph: TileableGraph::new(),
            scope: HashMap::new(),
            objects: Vec::new(),
            diagnostics: Vec::new(),
            seed: 0,
            random_calls: 0,
            stream_override: None,
            saved: HashMap::new(),
            frames: Vec::new(),
            loops: 0,
            iterations: 0,
            updates_in_calls: Vec::new(),
            whole_statement_call: false,
            stager: None,
            needs_stages: None,
            halted: false,
            echoes: Vec::new(),
            materialized: HashMap::new(),
            kept: Vec::new(),
        }
    }

    /// Records an error; returns the poison value the failed expression evaluates to.
    fn report(&mut self, diagnostic: Diagnostic) -> Value {
        self.diagnostics.push(diagnostic);
        Value::Poison
    }

    /// Unwraps a result into a value, reporting the error.
    fn value_or_report(&mut self, result: LowerResult<Value>) -> Value {
        result.unwrap_or_else(|diagnostic| self.report(diagnostic))
    }

    fn finish(mut self) -> Result<TileableGraph, Vec<Diagnostic>> {
        if self.diagnostics.is_empty() {
            let pruned = prune(&self.graph);
            return match graph_size::check_graph_size(&pruned) {
                Ok(()) => Ok(pruned),
                Err(diagnostic) => Err(vec![diagnostic]),
            };
        }
        // Statements are lowered in order, but within one statement an inner error
        // can be found after an outer one; a stable sort restores source order. A
        // function called twice reports its body's error once.
        self.diagnostics.sort_by_key(|d| d.span.start);
        let mut seen = std::collections::HashSet::new();
        self.diagnostics
            .retain(|d| seen.insert((d.span, d.message.clone())));
        Err(self.diagnostics)
    }
}
