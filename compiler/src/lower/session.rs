//! Lowering for the REPL: the session's accepted statements are lowered again (so
//! chunk keys, random streams and names come out exactly as before), their prints
//! and saves are dropped (they already ran), and only the new statements' outputs
//! are kept. An expression statement among the new ones becomes an *echo*: its value
//! shown as Python's REPL shows it. The session's tensor variables are appended as
//! print *handles*, so the REPL can find their chunks (to keep the ones a run computes
//! anyway) without the planner having to compute them.
//!
//! Also the names tab completion offers, taken from the library table.

use super::library::{self, Home};
use super::names::{builtin_names, builtin_value, library_member_names};
use super::objects::Binding;
use super::pyfmt::python_repr;
use super::value::{Namespace, Value};
use super::{LowerOptions, Lowerer};
use crate::tileable::prune::prune;
use crate::tileable::{Output, PrintItem, TileableGraph};
use marsc_grammar::ast::{Module, StmtKind};
use marsc_grammar::Diagnostic;

/// The new statements of a REPL input, lowered in the context of the earlier ones.
#[derive(Debug)]
pub struct SessionLowering {
    /// Pruned; its outputs are the new statements' prints, saves and echoes (in
    /// program order, `program_outputs` of them), then one print handle per tensor
    /// variable of the session.
    pub graph: TileableGraph,
    pub program_outputs: usize,
    /// Indexes of the outputs that echo a tensor (shown with `repr`, not `str`);
    /// a Python value's echo is already its repr text in a plain print.
    pub tensor_echoes: Vec<usize>,
    /// Every variable of the session with what `NAME.` completes to, sorted.
    pub scope: Vec<(String, Members)>,
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
    /// Nothing marsc knows of.
    Nothing,
}

/// Lowers `module`, whose statements from `first_new` on are the new input. On
/// failure, returns every static error (spans are into the whole program's text).
pub fn lower_session(
    module: &Module,
    first_new: usize,
    options: &LowerOptions,
) -> Result<SessionLowering, Vec<Diagnostic>> {
    let mut lowerer = Lowerer::new(options);
    let mut tensor_echoes = Vec::new();
    for (position, stmt) in module.stmts.iter().enumerate() {
        if position == first_new {
            // The earlier statements' prints and saves ran when they were entered.
            lowerer.graph.outputs.clear();
        }
        match &stmt.kind {
            StmtKind::Expr(expr) if position >= first_new => {
                let value = lowerer.eval(expr);
                let item = match &value {
                    Value::Tensor(id) => {
                        tensor_echoes.push(lowerer.graph.outputs.len());
                        PrintItem::Tensor(*id)
                    }
                    // Python's REPL shows nothing for None.
                    Value::None | Value::Poison => continue,
                    other => match python_repr(other) {
                        Some(text) => PrintItem::Text(text),
                        None => {
                            lowerer.report(
                                Diagnostic::error(
                                    "not supported yet: showing a tuple or list that contains a tensor",
                                    expr.span,
                                )
                                .with_help("show each tensor on its own"),
                            );
                            continue;
                        }
                    },
                };
                lowerer.graph.outputs.push(Output::Print {
                    items: vec![item],
                    sep: String::new(),
                    end: "\n".to_string(),
                    span: stmt.span,
                });
            }
            _ => lowerer.statement(stmt),
        }
    }
    if first_new >= module.stmts.len() {
        lowerer.graph.outputs.clear();
    }
    if !lowerer.diagnostics.is_empty() {
        lowerer.diagnostics.sort_by_key(|d| d.span.start);
        return Err(lowerer.diagnostics);
    }
    let program_outputs = lowerer.graph.outputs.len();
    let mut scope: Vec<(String, Members)> = lowerer
        .scope
        .iter()
        .map(|(name, binding)| (name.clone(), binding_members(binding)))
        .collect();
    scope.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, _) in &scope {
        let Some(Binding::Object(object)) = lowerer.scope.get(name).cloned() else {
            continue;
        };
        // A variable that cannot be read now (an opaque view of an updated tensor)
        // has no handle; reading it reports the error.
        if let Ok(id) = lowerer.object_value(object, Default::default()) {
            lowerer.graph.outputs.push(Output::Print {
                items: vec![PrintItem::Tensor(id)],
                sep: String::new(),
                end: String::new(),
                span: Default::default(),
            });
        }
    }
    Ok(SessionLowering {
        graph: prune(&lowerer.graph),
        program_outputs,
        tensor_echoes,
        scope,
    })
}

fn binding_members(binding: &Binding) -> Members {
    match binding {
        Binding::Object(_) => Members::Tensor,
        Binding::Plain(value) => members_of(value),
        Binding::Seq { .. } | Binding::Method(..) => Members::Nothing,
    }
}

fn members_of(value: &Value) -> Members {
    match value {
        Value::Tensor(_) => Members::Tensor,
        Value::Namespace(Namespace::Library(_)) => Members::Library,
        Value::Namespace(Namespace::Random(_)) => Members::Random,
        Value::Namespace(Namespace::Mars) => Members::Mars,
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
        Members::Mars => vec!["tensor"],
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
