//! Lowering for the REPL, incrementally: one [`SessionLowerer`] lives as long as the
//! session and keeps the lowering state (scope, graph, random seed and stream
//! counter), so each input lowers only its own statements, after the accepted ones,
//! and chunk keys, random streams and names come out exactly as if the whole session
//! were one script. An input that fails to lower leaves the state as it was (a
//! checkpoint of the scope and counters, and the graph truncated back). An expression
//! statement becomes an *echo*: its value shown as Python's REPL shows it.
//!
//! The graph handed back holds only what the new statements' outputs need, plus a
//! print *handle* for every session variable among those nodes, so the REPL can
//! keep the variables' chunks that a run computes anyway; nothing else of the
//! session is tiled or planned again.
//!
//! Also the names tab completion offers, taken from the library table.

use super::graph_size;
use super::library::{self, Home};
use super::names::{builtin_names, builtin_value, library_member_names};
use super::objects::Binding;
use super::pyfmt::python_repr_with;
use super::stage::SharedStager;
use super::value::{Namespace, Value};
use super::{LowerOptions, Lowerer};
use crate::ops::Creation;
use crate::tileable::prune::{prune_to, reached_from, reached_nodes};
use crate::tileable::{Output, PrintItem, TileOp, TileableGraph, TileableId};
use marsc_grammar::ast::{Module, StmtKind};
use marsc_grammar::{Diagnostic, Span};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// The new statements of a REPL input, lowered in the context of the earlier ones.
#[derive(Debug)]
pub struct SessionLowering {
    /// Pruned to what the outputs need; its outputs are the new statements' prints,
    /// saves and echoes (in program order, `program_outputs` of them), then one print
    /// handle per session variable whose tensor is in the graph.
    pub graph: TileableGraph,
    pub program_outputs: usize,
    /// Indexes of the outputs that echo a tensor (shown with `repr`, not `str`);
    /// a Python value's echo is already its repr text in a plain print.
    pub tensor_echoes: Vec<usize>,
    /// The `load`s the outputs need, as the session's own node ids (those of
    /// [`SessionLowerer::loads_since`], not the pruned graph's).
    pub loads: Vec<TileableId>,
    /// The session node of each print handle (the outputs after the program's),
    /// for [`SessionLowerer::materialize`].
    pub handles: Vec<TileableId>,
    /// Step keys whose cached chunks no name of the program can reach any more
    /// (their variables were rebound): the session drops them from its cache
    /// before this run, so a long loop over a big tensor keeps one iteration's
    /// values, not every iteration's.
    pub evicted: Vec<u64>,
}

/// A `load(...)` the session lowered: which file, and where in the session's text.
#[derive(Clone, Debug)]
pub struct LoadSite {
    /// The load's node in the session's graph (stable for the whole session).
    pub node: TileableId,
    /// The file as the runtime opens it.
    pub path: PathBuf,
    /// The `load(...)` expression.
    pub span: Span,
}

/// What follows `NAME.` for tab completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Members {
    /// Tensor methods and attributes.
    Tensor,
    /// `mt.` / `np.`: the library.
    Library,
    /// `mt.random.`.
    Random,
    /// `mars.`: only `tensor`.
    Mars,
    /// `mt.linalg.`.
    Linalg,
    /// A named tuple's fields (`QRResult`: `Q`, `R`), each a tensor.
    Fields(&'static [&'static str]),
    /// Nothing marsc knows of.
    Nothing,
}

/// The lowering state of one REPL session.
pub struct SessionLowerer<'o> {
    lowerer: Lowerer<'o>,
    /// Expression statements show their value (the REPL); `false` for a script run
    /// as a session, where they show nothing.
    pub echo: bool,
}

/// The state before an input: the graph's size (it only grows, and is truncated
/// back), the old values of the names the input binds (a statement binds only its
/// targets: the names of `=`, `OP=` and `import`), and a clone of the rest (counters,
/// the object table, which in-place updates change, and the saved files; the scope
/// and graph are taken out first, so a checkpoint does not copy them).
struct Checkpoint<'o> {
    nodes: usize,
    bound: Vec<(String, Option<Binding>)>,
    rest: Lowerer<'o>,
}

impl<'o> SessionLowerer<'o> {
    pub fn new(options: &'o LowerOptions) -> SessionLowerer<'o> {
        SessionLowerer {
            lowerer: Lowerer::new(options),
            echo: true,
        }
    }

    /// A session's lowering whose need of a tensor's value runs a stage on `stager`.
    pub fn with_stager(options: &'o LowerOptions, stager: SharedStager<'o>) -> SessionLowerer<'o> {
        let mut lowerer = Lowerer::new(options);
        lowerer.stager = Some(stager);
        SessionLowerer {
            lowerer,
            echo: true,
        }
    }

    /// Lowers one input's statements (spans into the session's whole text) after
    /// the accepted ones and keeps them. On failure, returns every static error and
    /// leaves the session as it was.
    pub fn accept(&mut self, module: &Module) -> Result<SessionLowering, Vec<Diagnostic>> {
        let checkpoint = self.checkpoint(module);
        match catch_unwind(AssertUnwindSafe(|| self.lower_input(module))) {
            Ok(Ok(lowering)) => Ok(lowering),
            Ok(Err(diagnostics)) => {
                self.restore(checkpoint);
                Err(diagnostics)
            }
            // A compiler bug must not leave half an input in the session.
            Err(panic) => {
                self.restore(checkpoint);
                resume_unwind(panic)
            }
        }
    }

    /// Lowers one input as [`accept`](Self::accept) does, then forgets it (`:emit`).
    /// Nothing runs: an input that needs a tensor's value is an error here.
    pub fn trial(&mut self, module: &Module) -> Result<SessionLowering, Vec<Diagnostic>> {
        let stager = self.lowerer.stager.take();
        let checkpoint = self.checkpoint(module);
        let outcome = catch_unwind(AssertUnwindSafe(|| self.lower_input(module)));
        self.restore(checkpoint);
        self.lowerer.stager = stager;
        outcome.unwrap_or_else(|panic| resume_unwind(panic))
    }

    /// Records which handles of a run's lowering the cache now holds whole
    /// (see [`Lowerer::materialize`]).
    pub fn materialize(&mut self, handles: &[TileableId], keys: &[Option<u64>]) {
        self.lowerer.materialize(handles, keys);
    }

    /// Forgets what the cache held (it was cleared): later runs compute from the
    /// program again.
    pub fn forget_materialized(&mut self) {
        self.lowerer.materialized.clear();
    }

    /// Forgets every statement.
    pub fn reset(&mut self) {
        let stager = self.lowerer.stager.take();
        self.lowerer = Lowerer::new(self.lowerer.options);
        self.lowerer.stager = stager;
    }

    /// How many nodes the session's graph holds (node ids below it are taken).
    pub fn node_count(&self) -> usize {
        self.lowerer.graph.len()
    }

    /// The loads among the session's nodes from `first` on.
    pub fn loads_since(&self, first: usize) -> Vec<LoadSite> {
        let graph = &self.lowerer.graph;
        graph
            .ids()
            .skip(first)
            .filter_map(|node| match &graph.node(node).op {
                TileOp::Create(Creation::Load { source }) => Some(LoadSite {
                    node,
                    path: source.path().to_path_buf(),
                    span: graph.node(node).span,
                }),
                _ => None,
            })
            .collect()
    }

    /// The session variables whose tensor is now exactly `node`, sorted.
    pub fn names_of(&self, node: TileableId) -> Vec<String> {
        let lowerer = &self.lowerer;
        let mut names: Vec<String> = lowerer
            .scope
            .iter()
            .filter(|(_, binding)| match binding {
                Binding::Object(object) => lowerer.current_value(*object) == Some(node),
                _ => false,
            })
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }

    fn checkpoint(&mut self, module: &Module) -> Checkpoint<'o> {
        let bound = bound_names(module)
            .map(|name| {
                let old = self.lowerer.scope.get(&name).cloned();
                (name, old)
            })
            .collect();
        let graph = std::mem::take(&mut self.lowerer.graph);
        let scope = std::mem::take(&mut self.lowerer.scope);
        let rest = self.lowerer.clone();
        self.lowerer.graph = graph;
        self.lowerer.scope = scope;
        Checkpoint {
            nodes: self.lowerer.graph.len(),
            bound,
            rest,
        }
    }

    fn restore(&mut self, checkpoint: Checkpoint<'o>) {
        let mut graph = std::mem::take(&mut self.lowerer.graph);
        let mut scope = std::mem::take(&mut self.lowerer.scope);
        graph.truncate(checkpoint.nodes);
        graph.outputs.clear();
        // Newest first, so a name bound twice gets its value from before both.
        for (name, old) in checkpoint.bound.into_iter().rev() {
            match old {
                Some(value) => scope.insert(name, value),
                None => scope.remove(&name),
            };
        }
        self.lowerer = checkpoint.rest;
        self.lowerer.graph = graph;
        self.lowerer.scope = scope;
    }

    /// Every variable of the session with what `NAME.` completes to, sorted.
    pub fn scope(&self) -> Vec<(String, Members)> {
        let mut scope: Vec<(String, Members)> = self
            .lowerer
            .scope
            .iter()
            .map(|(name, binding)| (name.clone(), binding_members(binding)))
            .collect();
        scope.sort_by(|a, b| a.0.cmp(&b.0));
        scope
    }

    fn lower_input(&mut self, module: &Module) -> Result<SessionLowering, Vec<Diagnostic>> {
        let echo = self.echo;
        let lowerer = &mut self.lowerer;
        // The earlier inputs' prints and saves ran when they were entered.
        lowerer.graph.outputs.clear();
        lowerer.diagnostics.clear();
        lowerer.echoes.clear();
        for stmt in &module.stmts {
            if lowerer.halted {
                break;
            }
            match &stmt.kind {
                StmtKind::Expr(expr) if echo => {
                    let value = lowerer.eval_statement_expression(expr);
                    let item = match &value {
                        Value::Tensor(id) => {
                            lowerer.echoes.push(lowerer.graph.outputs.len());
                            PrintItem::Tensor(*id)
                        }
                        // Python's REPL shows nothing for None.
                        Value::None | Value::Poison => continue,
                        // A tuple or list holding tensors shows their `repr()`,
                        // which a stage computes.
                        other if other.contains_poison() => continue,
                        other => {
                            let span = expr.span;
                            let shown =
                                python_repr_with(other, &mut |id| lowerer.staged_repr(id, span));
                            match shown {
                                Some(text) => PrintItem::Text(text),
                                None => continue,
                            }
                        }
                    };
                    lowerer.graph.outputs.push(Output::Print {
                        items: vec![item],
                        sep: String::new(),
                        end: "\n".to_string(),
                        span: stmt.span,
                    });
                }
                _ => {
                    lowerer.statement(stmt);
                }
            }
        }
        if lowerer.halted && lowerer.diagnostics.is_empty() {
            return Err(match lowerer.needs_stages {
                Some(span) => vec![super::needs_stages_error(span)],
                // A stage failed; the stager holds its error.
                None => Vec::new(),
            });
        }
        if !lowerer.diagnostics.is_empty() {
            let mut diagnostics = std::mem::take(&mut lowerer.diagnostics);
            diagnostics.sort_by_key(|d| d.span.start);
            diagnostics.dedup_by(|a, b| a.span == b.span && a.message == b.message);
            return Err(diagnostics);
        }
        lowerer.take_lowering()
    }
}

impl Lowerer<'_> {
    /// The outputs lowered since the last run (the input's, or a stage's), as a
    /// graph pruned to what they need, with a print handle for each session
    /// variable among those nodes; the outputs are then cleared.
    pub(super) fn take_lowering(&mut self) -> Result<SessionLowering, Vec<Diagnostic>> {
        let program_outputs = self.graph.outputs.len();
        let tensor_echoes = std::mem::take(&mut self.echoes);
        if program_outputs == 0 {
            // Nothing to compute: nothing of the session is looked at again.
            return Ok(SessionLowering {
                graph: TileableGraph::new(),
                program_outputs,
                tensor_echoes,
                loads: Vec::new(),
                handles: Vec::new(),
                evicted: Vec::new(),
            });
        }
        let evicted = self.release_unreachable();
        // Handles only for the variables the outputs reach: the rest of the session
        // is neither tiled nor planned for this input.
        let materialized = &self.materialized;
        let reached = reached_nodes(&self.graph, |id| materialized.contains_key(&id));
        let needed: std::collections::HashSet<TileableId> = reached.iter().copied().collect();
        let mut handles: Vec<(&String, TileableId)> = self
            .scope
            .iter()
            .filter_map(|(name, binding)| match binding {
                Binding::Object(object) => self
                    .current_value(*object)
                    .filter(|id| needed.contains(id))
                    .map(|id| (name, id)),
                _ => None,
            })
            .collect();
        handles.sort();
        let mut handles: Vec<TileableId> = handles.into_iter().map(|(_, id)| id).collect();
        for &id in &self.kept {
            if needed.contains(&id) && !handles.contains(&id) {
                handles.push(id);
            }
        }
        for &id in &handles {
            self.graph.outputs.push(Output::Print {
                items: vec![PrintItem::Tensor(id)],
                sep: String::new(),
                end: String::new(),
                span: Span::default(),
            });
        }
        let loads = reached
            .iter()
            .copied()
            .filter(|id| {
                matches!(
                    self.graph.node(*id).op,
                    TileOp::Create(Creation::Load { .. })
                )
            })
            .collect();
        // The handles pushed above are among the reached nodes, so the outputs reach
        // exactly those: the graph is pruned to them without walking it again.
        let materialized = &self.materialized;
        let graph = prune_to(&self.graph, &reached, |id| materialized.get(&id).copied());
        self.graph.outputs.clear();
        // A graph too big to tile is refused as a script's is, before anything runs.
        graph_size::check_graph_size(&graph).map_err(|diagnostic| vec![diagnostic])?;
        Ok(SessionLowering {
            graph,
            program_outputs,
            tensor_echoes,
            loads,
            handles,
            evicted,
        })
    }

    /// Keeps `id`'s chunks in the session's cache from the next run on, as a
    /// variable's are, though no name holds it (a later stage reads it again).
    pub(super) fn keep_across_stages(&mut self, id: TileableId) {
        if !self.kept.contains(&id) {
            self.kept.push(id);
        }
    }

    /// Forgets the cached tensors the program can no longer reach: reached from
    /// every tensor a binding holds (the running scope and its callers', tuples and
    /// lists, objects and the bases of views, functions' defaults) and the kept
    /// intermediates, walking back to the first cached tensor on each path, a
    /// cached tensor not reached is dead. Returns the step keys to drop from the
    /// cache (those no live cached tensor shares). Always safe: a tensor that is
    /// needed after all (held only by an expression being evaluated) is computed
    /// again from its inputs, which the graph keeps.
    fn release_unreachable(&mut self) -> Vec<u64> {
        if self.materialized.is_empty() {
            return Vec::new();
        }
        let mut roots: Vec<TileableId> = self.kept.clone();
        let mut pending: Vec<&Binding> = self.all_bindings().collect();
        let mut objects: Vec<super::objects::ObjectId> = Vec::new();
        while let Some(binding) = pending.pop() {
            match binding {
                Binding::Object(object) | Binding::Method(object, _) => objects.push(*object),
                Binding::Seq { items, .. } => pending.extend(items.iter()),
                Binding::Plain(value) => tensors_in(value, &mut roots, &mut pending),
            }
        }
        for object in objects {
            roots.extend(self.object_values(object));
        }
        let materialized = &self.materialized;
        let reached: std::collections::HashSet<TileableId> =
            reached_from(&self.graph, roots, |id| materialized.contains_key(&id))
                .into_iter()
                .collect();
        let dead: Vec<TileableId> = self
            .materialized
            .keys()
            .filter(|id| !reached.contains(id))
            .copied()
            .collect();
        if dead.is_empty() {
            return Vec::new();
        }
        let mut evicted: Vec<u64> = dead
            .iter()
            .filter_map(|id| self.materialized.remove(id))
            .collect();
        let live: std::collections::HashSet<u64> = self.materialized.values().copied().collect();
        evicted.retain(|key| !live.contains(key));
        evicted.sort_unstable();
        evicted.dedup();
        evicted
    }

    /// Records the handles whose chunks a run left all in the session's cache
    /// (`keys[i]`: the step key of `handles[i]`, if so): later runs cut there.
    pub(super) fn materialize(&mut self, handles: &[TileableId], keys: &[Option<u64>]) {
        for (&id, key) in handles.iter().zip(keys) {
            if let Some(key) = key {
                self.materialized.insert(id, *key);
            }
        }
    }
}

/// The names the statements of `module` bind.
fn bound_names(module: &Module) -> impl Iterator<Item = String> {
    let mut names = std::collections::HashSet::new();
    super::control::assigned_names(&module.stmts, &mut names);
    let mut names: Vec<String> = names.into_iter().collect();
    names.sort();
    names.into_iter()
}

/// The tensors a Python value holds (in tuples and lists), and the bindings of a
/// function's defaults.
fn tensors_in<'v>(value: &'v Value, roots: &mut Vec<TileableId>, pending: &mut Vec<&'v Binding>) {
    match value {
        Value::Tensor(id) => roots.push(*id),
        Value::Tuple(items, _) | Value::List(items) => {
            for item in items.iter() {
                tensors_in(item, roots, pending);
            }
        }
        Value::UserFunction(function) => pending.extend(function.defaults.iter().flatten()),
        _ => {}
    }
}

fn binding_members(binding: &Binding) -> Members {
    match binding {
        Binding::Object(_) => Members::Tensor,
        Binding::Plain(value) => members_of(value),
        Binding::Seq {
            class: Some(class), ..
        } => Members::Fields(class.fields),
        Binding::Seq { .. } | Binding::Method(..) => Members::Nothing,
    }
}

fn members_of(value: &Value) -> Members {
    match value {
        Value::Tensor(_) => Members::Tensor,
        Value::Namespace(Namespace::Library(_)) => Members::Library,
        Value::Namespace(Namespace::Random(_)) => Members::Random,
        Value::Namespace(Namespace::Mars) => Members::Mars,
        Value::Namespace(Namespace::Linalg(_)) => Members::Linalg,
        Value::Tuple(_, Some(class)) => Members::Fields(class.fields),
        _ => Members::Nothing,
    }
}

/// What `NAME.` completes to when `NAME` is not a variable (`mt`, `np`).
pub fn builtin_members(name: &str) -> Members {
    builtin_value(name).map_or(Members::Nothing, |value| members_of(&value))
}

/// The names after `NAME.` for `NAME` with these members, sorted and unique.
pub fn member_names(members: Members) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = match members {
        Members::Tensor => library::method_names()
            .chain(super::attributes::TENSOR_ATTRIBUTES.iter().copied())
            .collect(),
        Members::Library => library_member_names().collect(),
        Members::Random => library::names(Home::Random).collect(),
        Members::Mars => std::iter::once("tensor")
            .chain(library::names(Home::Mars))
            .collect(),
        Members::Linalg => library::names(Home::Linalg).collect(),
        Members::Fields(fields) => fields.to_vec(),
        Members::Nothing => Vec::new(),
    };
    names.sort_unstable();
    names.dedup();
    names
}

/// Every name reachable without a prefix besides the session's own variables
/// (builtins, the library, `mt`, `np`, `import`), sorted and unique.
pub fn bare_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = builtin_names().chain(["import"]).collect();
    names.sort_unstable();
    names.dedup();
    names
}
