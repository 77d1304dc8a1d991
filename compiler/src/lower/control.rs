//! Python's structure, decided at compile time: blocks (`if`/`elif`/`else`, `for`
//! and `while` with `break`, `continue` and `else` clauses, `x if c else y`),
//! unpacking assignment, `assert`, and `def` functions.
//!
//! Lowering *runs* the program's Python part: a condition is evaluated to a Python
//! value and only the branch taken is lowered; a loop is unrolled, one lowering of
//! its body per iteration. A function is lowered afresh at each call with that
//! call's arguments (so its shapes may differ per call), in its own scope of locals
//! that falls back to the script's globals, as Python's does. Arguments are passed
//! as objects: `x += 1` inside a function updates the caller's tensor, as in NumPy.
//!
//! What must be known while compiling is a Python value: a condition, a loop's
//! iterable, an assertion. One that depends on a tensor's *value* (`if x.sum() > 0:`)
//! needs the program to run up to there first (staged execution), which is not
//! built yet: it is a "not supported yet" error, never a guess. Shapes and dtypes
//! are Python values (`if x.shape[0] > 2:` is fine), and iterating over a tensor
//! walks its first axis, whose length is known.
//!
//! Unrolling is bounded ([`MAX_ITERATIONS`] loop iterations in all, [`MAX_CALL_DEPTH`]
//! nested calls), so a loop that never ends is an error, not a hang; recursion is
//! an error at the recursive call. A loop stops unrolling after the first iteration
//! that reports an error (as Python stops at the first exception), so an error in
//! a long loop's body is reported once, at once.

use super::iteration::{python_values, PythonItems};
use super::objects::Binding;
use super::value::Value;
use super::views::Origin;
use super::Lowerer;
use marsc_grammar::ast::{
    Arg as AstArg, Comprehension, Expr, ExprKind, FunctionDef, Stmt, StmtKind, SubscriptItem,
    Target,
};
use marsc_grammar::{Diagnostic, Span};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

/// The most loop iterations a whole program may unroll while compiling.
pub(crate) const MAX_ITERATIONS: u64 = 1_000_000;
/// The deepest chain of nested calls.
pub(crate) const MAX_CALL_DEPTH: usize = 200;

/// How a statement ends: normally, or by leaving its loop or function.
#[derive(Clone, Debug)]
pub(crate) enum Flow {
    Next,
    Break,
    Continue,
    /// `return`: the value's binding (`None` for a bare `return`).
    Return(Binding),
}

/// A `def` as a value: its definition, its defaults (evaluated once, when the `def`
/// ran, as Python does) and the names its body assigns (its locals).
pub(crate) struct UserFunction {
    pub def: FunctionDef,
    pub defaults: Vec<Option<Binding>>,
    pub locals: HashSet<String>,
}

impl fmt::Debug for UserFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<function {}>", self.def.name.name)
    }
}

impl PartialEq for UserFunction {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// A call in progress: the function and the scope of its caller.
#[derive(Clone)]
pub(crate) struct Frame {
    pub function: Rc<UserFunction>,
    pub caller_scope: HashMap<String, Binding>,
    /// Loops open in the caller when it made the call.
    pub caller_loops: u32,
}

/// Where a name was found.
pub(crate) enum Found {
    Bound(Binding),
    /// A local of the running function that has no value yet.
    UnboundLocal,
    Missing,
}

impl Lowerer<'_> {
    /// Runs one statement; returns how it ended.
    pub(super) fn statement(&mut self, stmt: &Stmt) -> Flow {
        match &stmt.kind {
            StmtKind::Import { module, alias } => self.import(module, alias.as_ref()),
            StmtKind::Assign { target, value } => {
                let binding = self.bind_statement_expression(value);
                self.scope.insert(target.name.clone(), binding);
            }
            StmtKind::AugAssign {
                target,
                op,
                op_span,
                value,
            } => self.augmented_assignment(target, *op, *op_span, value),
            StmtKind::SetItem { target, op, value } => self.set_item(target, *op, value),
            StmtKind::Expr(expr) => {
                self.eval_statement_expression(expr);
            }
            StmtKind::Unpack { target, value } => {
                let binding = self.bind_statement_expression(value);
                self.assign_target(target, binding, value.span);
            }
            StmtKind::If { branches, orelse } => {
                for branch in branches {
                    match self.condition(&branch.test) {
                        Some(true) => return self.block(&branch.body),
                        Some(false) => {}
                        None => return Flow::Next,
                    }
                }
                if let Some(orelse) = orelse {
                    return self.block(orelse);
                }
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => return self.for_loop(target, iter, body, orelse.as_deref()),
            StmtKind::While { test, body, orelse } => {
                return self.while_loop(test, body, orelse.as_deref())
            }
            StmtKind::Def(def) => self.define(def),
            StmtKind::Return(value) => {
                if self.frames.is_empty() {
                    self.report(
                        Diagnostic::error("`return` outside a function", stmt.span)
                            .with_label("not inside a `def`"),
                    );
                    return Flow::Next;
                }
                let binding = match value {
                    Some(value) => self.bind_statement_expression(value),
                    None => Binding::Plain(Value::None),
                };
                return Flow::Return(binding);
            }
            StmtKind::Break | StmtKind::Continue => {
                let keyword = if matches!(stmt.kind, StmtKind::Break) {
                    "break"
                } else {
                    "continue"
                };
                if self.loops == 0 {
                    self.report(
                        Diagnostic::error(format!("`{keyword}` outside a loop"), stmt.span)
                            .with_label("not inside a `for` or `while`"),
                    );
                    return Flow::Next;
                }
                return if keyword == "break" {
                    Flow::Break
                } else {
                    Flow::Continue
                };
            }
            StmtKind::Pass => {}
            StmtKind::Assert { test, message } => self.assert(test, message.as_ref(), stmt.span),
        }
        Flow::Next
    }

    /// An expression statement's value; a call that is the whole statement may update
    /// its caller's tensors in place.
    pub(super) fn eval_statement_expression(&mut self, expr: &Expr) -> Value {
        self.whole_statement_call = matches!(expr.kind, ExprKind::Call { .. });
        self.eval(expr)
    }

    /// The binding of a statement's whole value (`y = ...`, `a, b = ...`, `return ...`),
    /// which, as an expression statement's, may be a call that updates in place.
    fn bind_statement_expression(&mut self, expr: &Expr) -> Binding {
        self.whole_statement_call = matches!(expr.kind, ExprKind::Call { .. });
        self.bind_expr(expr)
    }

    /// Runs a block's statements until one leaves it.
    pub(super) fn block(&mut self, body: &[Stmt]) -> Flow {
        for stmt in body {
            if self.halted {
                break;
            }
            match self.statement(stmt) {
                Flow::Next => {}
                other => return other,
            }
        }
        Flow::Next
    }

    /// The truth of a condition, decided now; `None` when it cannot be (reported,
    /// or already poisoned).
    pub(super) fn condition(&mut self, test: &Expr) -> Option<bool> {
        let value = self.eval(test);
        self.truth_of(&value, test.span)
    }

    fn truth_of(&mut self, value: &Value, span: Span) -> Option<bool> {
        self.truth(value, span).unwrap_or_else(|error| {
            self.report(error);
            None
        })
    }

    /// One more loop iteration; `false` (reported) past the program's budget.
    fn count_iteration(&mut self, span: Span) -> bool {
        if self.halted {
            return false;
        }
        self.iterations += 1;
        if self.iterations <= MAX_ITERATIONS {
            return true;
        }
        self.report(
            Diagnostic::error(
                format!("loops ran more than {MAX_ITERATIONS} iterations while compiling"),
                span,
            )
            .with_label("this loop was still running")
            .with_note("marsc unrolls loops while compiling, stage by stage")
            .with_help("write the computation with whole-tensor operations"),
        );
        false
    }

    fn for_loop(
        &mut self,
        target: &Target,
        iter: &Expr,
        body: &[Stmt],
        orelse: Option<&[Stmt]>,
    ) -> Flow {
        let items = match self.enumerate_or_zip(iter) {
            Some(items) => items,
            None => {
                let iterable = self.bind_expr(iter);
                self.items_of(&iterable, iter.span, "iterate over")
            }
        };
        let Some(items) = items else {
            return Flow::Next;
        };
        self.loops += 1;
        let mut exit = None;
        for item in items {
            if !self.count_iteration(iter.span) {
                exit = Some(Flow::Next);
                break;
            }
            let item = self.item_binding(item, iter.span);
            self.assign_target(target, item, iter.span);
            exit = self.iteration(body);
            if exit.is_some() {
                break;
            }
        }
        self.loops -= 1;
        self.after_loop(exit, orelse)
    }

    fn while_loop(&mut self, test: &Expr, body: &[Stmt], orelse: Option<&[Stmt]>) -> Flow {
        self.loops += 1;
        let exit = loop {
            match self.condition(test) {
                Some(true) => {}
                Some(false) => break None,
                None => break Some(Flow::Next),
            }
            if !self.count_iteration(test.span) {
                break Some(Flow::Next);
            }
            if let Some(exit) = self.iteration(body) {
                break Some(exit);
            }
        };
        self.loops -= 1;
        self.after_loop(exit, orelse)
    }

    /// One run of a loop's body: `None` to go on, or how the statement ends when
    /// the loop stops here (`break`: normally; `return`: returning). A run that
    /// reported an error ends the loop as an error does (no `else`): unrolling on
    /// would report it again at every iteration, up to the budget — a million
    /// lowerings of a misspelt name, each with its did-you-mean search.
    fn iteration(&mut self, body: &[Stmt]) -> Option<Flow> {
        let reported = self.diagnostics.len();
        let flow = self.block(body);
        if self.diagnostics.len() > reported {
            return Some(Flow::Next);
        }
        match flow {
            Flow::Next | Flow::Continue => None,
            Flow::Break => Some(Flow::Next),
            ret @ Flow::Return(_) => Some(ret),
        }
    }

    /// A loop's `else` runs only when the loop ran out (`exit` is `None`), not when it
    /// was left by `break`, `return` or an error.
    fn after_loop(&mut self, exit: Option<Flow>, orelse: Option<&[Stmt]>) -> Flow {
        match (exit, orelse) {
            (Some(flow), _) => flow,
            (None, Some(orelse)) => self.block(orelse),
            (None, None) => Flow::Next,
        }
    }

    fn assert(&mut self, test: &Expr, message: Option<&Expr>, span: Span) {
        if self.condition(test) != Some(false) {
            return;
        }
        let mut diagnostic = Diagnostic::error("assertion failed", test.span)
            .with_label("this is false")
            .with_secondary(span, "in this `assert`");
        if let Some(message) = message {
            let text = match self.eval(message) {
                Value::Poison => return,
                Value::Tensor(_) => None,
                value => super::pyfmt::python_str(&value),
            };
            if let Some(text) = text {
                diagnostic = diagnostic.with_note(format!("AssertionError: {text}"));
            }
        }
        self.report(diagnostic);
    }

    // ------------------------------------------------------------- assignment

    /// Binds `binding` to `target`, unpacking it into a tuple or list of targets.
    pub(super) fn assign_target(&mut self, target: &Target, binding: Binding, value_span: Span) {
        match target {
            Target::Name(ident) => {
                self.scope.insert(ident.name.clone(), binding);
            }
            Target::Unpack { items, span } => {
                let poison = || Binding::Plain(Value::Poison);
                let values = match &binding {
                    Binding::Plain(Value::Poison) => None,
                    _ => self.items_of(&binding, value_span, "unpack"),
                };
                let Some(values) = values else {
                    for item in items {
                        self.assign_target(item, poison(), value_span);
                    }
                    return;
                };
                if values.len() != items.len() {
                    let message = if values.len() > items.len() {
                        format!("too many values to unpack (expected {})", items.len())
                    } else {
                        format!(
                            "not enough values to unpack (expected {}, got {})",
                            items.len(),
                            values.len()
                        )
                    };
                    self.report(
                        Diagnostic::error(message, value_span)
                            .with_label(format!(
                                "{} value{}",
                                values.len(),
                                if values.len() == 1 { "" } else { "s" }
                            ))
                            .with_secondary(
                                *span,
                                format!(
                                    "{} name{}",
                                    items.len(),
                                    if items.len() == 1 { "" } else { "s" }
                                ),
                            ),
                    );
                    for item in items {
                        self.assign_target(item, poison(), value_span);
                    }
                    return;
                }
                for (item, value) in items.iter().zip(values) {
                    let value = self.item_binding(value, value_span);
                    self.assign_target(item, value, value_span);
                }
            }
        }
    }

    /// The items of an iterable, in order, or `None` (reported) when it is not one
    /// whose items are known while compiling. `doing` names what was attempted
    /// (`iterate over`, `unpack`).
    pub(super) fn items_of(
        &mut self,
        iterable: &Binding,
        span: Span,
        doing: &str,
    ) -> Option<Vec<Item>> {
        match iterable {
            Binding::Seq { items, .. } => Some(items.iter().cloned().map(Item::Bound).collect()),
            Binding::Object(_) => {
                let value = self.resolve(iterable, span);
                let Value::Tensor(id) = value else {
                    return None;
                };
                let shape = self.shape(id);
                let Some(&length) = shape.first() else {
                    self.report(
                        Diagnostic::error(format!("cannot {doing} a 0-d tensor"), span)
                            .with_label("a 0-d tensor has no items"),
                    );
                    return None;
                };
                Some(
                    (0..length)
                        .map(|index| Item::Row {
                            tensor: iterable.clone(),
                            index,
                        })
                        .collect(),
                )
            }
            Binding::Plain(Value::Poison) => None,
            Binding::Plain(value) => match python_values(value) {
                PythonItems::Items(values) => Some(values.into_iter().map(Item::Value).collect()),
                PythonItems::TooMany(length) => {
                    self.report(
                        Diagnostic::error(
                            format!("cannot {doing} a range of {length} items while compiling"),
                            span,
                        )
                        .with_label(format!("more than {MAX_ITERATIONS} items")),
                    );
                    None
                }
                PythonItems::NotIterable => {
                    self.report(
                        Diagnostic::error(format!("cannot {doing} {}", value.a_type_name()), span)
                            .with_label(format!("{} is not iterable", value.a_type_name())),
                    );
                    None
                }
            },
            Binding::Method(..) => {
                self.report(
                    Diagnostic::error(format!("cannot {doing} a method"), span)
                        .with_label("a method is not iterable")
                        .with_help("call it first"),
                );
                None
            }
        }
    }

    /// The binding of one item of an iterable: a tensor's row is a view of it, as
    /// NumPy's iteration gives.
    fn item_binding(&mut self, item: Item, span: Span) -> Binding {
        match item {
            Item::Bound(binding) => binding,
            Item::Value(value) => Binding::Plain(value),
            Item::Row { tensor, index } => {
                let value = self.resolve(&tensor, span);
                let index = Expr {
                    kind: ExprKind::Int(index as i64),
                    span,
                };
                let items = [SubscriptItem::Expr(index)];
                let (value, origin) =
                    self.subscript_origin(value, Origin::Same(tensor), span, &items, span);
                self.binding_for(value, origin, span)
            }
        }
    }

    /// `enumerate(...)` / `zip(...)` in a `for` header, iterated lazily so that each
    /// item keeps its identity (a tensor's row is a view of it); `None` when `iter`
    /// is not such a call (or one this does not handle, which then goes through
    /// the builtin itself).
    fn enumerate_or_zip(&mut self, iter: &Expr) -> Option<Option<Vec<Item>>> {
        let ExprKind::Call { func, args } = &iter.kind else {
            return None;
        };
        let ExprKind::Name(name) = &func.kind else {
            return None;
        };
        if !matches!(name.as_str(), "enumerate" | "zip")
            || !matches!(self.find_name(name), Found::Missing)
        {
            return None;
        }
        let positional: Vec<&Expr> = args
            .iter()
            .filter(|a| a.name.is_none())
            .map(|a| &a.value)
            .collect();
        let keywords: Vec<&AstArg> = args.iter().filter(|a| a.name.is_some()).collect();
        if name == "enumerate" {
            let start_keyword = match keywords[..] {
                [] => None,
                [arg] if arg.name.as_ref().is_some_and(|n| n.name == "start") => Some(&arg.value),
                _ => return None,
            };
            let (iterable, start) = match (&positional[..], start_keyword) {
                ([iterable], start) => (*iterable, start),
                ([iterable, start], None) => (*iterable, Some(*start)),
                _ => return None,
            };
            let start = match start.map(|s| (self.eval(s), s.span)) {
                None => 0,
                Some((Value::Int(v), _)) => v,
                Some((Value::Bool(b), _)) => i64::from(b),
                Some((Value::Poison, _)) => return Some(None),
                Some((other, span)) => {
                    self.report(Diagnostic::error(
                        format!(
                            "'{}' object cannot be interpreted as an integer",
                            other.type_name()
                        ),
                        span,
                    ));
                    return Some(None);
                }
            };
            let binding = self.bind_expr(iterable);
            let items = self.items_of(&binding, iterable.span, "enumerate")?;
            let pairs = items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    let item = self.item_binding(item, iterable.span);
                    let index = Binding::Plain(Value::Int(start + i as i64));
                    Item::Bound(Binding::Seq {
                        items: vec![index, item].into(),
                        is_list: false,
                        class: None,
                    })
                })
                .collect();
            return Some(Some(pairs));
        }
        if !keywords.is_empty() {
            return None;
        }
        let mut columns = Vec::with_capacity(positional.len());
        for iterable in &positional {
            let binding = self.bind_expr(iterable);
            match self.items_of(&binding, iterable.span, "zip") {
                Some(items) => columns.push((items, iterable.span)),
                None => return Some(None),
            }
        }
        let length = columns.iter().map(|(c, _)| c.len()).min().unwrap_or(0);
        let mut columns: Vec<_> = columns
            .into_iter()
            .map(|(items, span)| (items.into_iter().take(length), span))
            .collect();
        let mut rows = Vec::with_capacity(length);
        for _ in 0..length {
            let mut row = Vec::with_capacity(columns.len());
            for (items, span) in &mut columns {
                let item = items.next().expect("every column has `length` items");
                row.push(self.item_binding(item, *span));
            }
            rows.push(Item::Bound(Binding::Seq {
                items: row.into(),
                is_list: false,
                class: None,
            }));
        }
        Some(Some(rows))
    }

    // ------------------------------------------------------------- functions

    fn define(&mut self, def: &FunctionDef) {
        if !self.frames.is_empty() {
            self.report(
                Diagnostic::error("not supported yet: a `def` inside a function", def.header)
                    .with_label("a nested function")
                    .with_help("define the function at the top level of the script"),
            );
            self.scope
                .insert(def.name.name.clone(), Binding::Plain(Value::Poison));
            return;
        }
        let defaults = def
            .params
            .iter()
            .map(|param| param.default.as_ref().map(|d| self.bind_expr(d)))
            .collect();
        let mut locals: HashSet<String> = def.params.iter().map(|p| p.name.name.clone()).collect();
        assigned_names(&def.body, &mut locals);
        let function = UserFunction {
            def: def.clone(),
            defaults,
            locals,
        };
        self.scope.insert(
            def.name.name.clone(),
            Binding::Plain(Value::UserFunction(Rc::new(function))),
        );
    }

    /// A call of a `def` function: binds its arguments as Python does, then lowers
    /// its body in a scope of its own.
    pub(super) fn call_user_function(
        &mut self,
        function: Rc<UserFunction>,
        args: &[AstArg],
        span: Span,
        whole_statement: bool,
    ) -> (Value, Origin) {
        let name = function.def.name.name.clone();
        let objects_before = self.objects.len();
        let updates_before = self.updates_in_calls.len();
        let mut bindings: Vec<CallBinding> = Vec::new();
        for arg in args {
            let binding = self.bind_expr(&arg.value);
            let keyword = arg.name.as_ref().map(|n| (n.name.clone(), n.span));
            bindings.push((keyword, binding, arg.span));
        }
        if bindings
            .iter()
            .any(|(_, b, _)| matches!(b, Binding::Plain(Value::Poison)))
        {
            return (Value::Poison, Origin::NEW);
        }
        let locals = match bind_call(&function, bindings, span) {
            Ok(locals) => locals,
            Err(diagnostic) => {
                self.report(diagnostic);
                return (Value::Poison, Origin::NEW);
            }
        };
        if self
            .frames
            .iter()
            .any(|frame| Rc::ptr_eq(&frame.function, &function))
        {
            self.report(
                Diagnostic::error(
                    format!("not supported: recursion (`{name}` calls itself)"),
                    span,
                )
                .with_label(format!("calls `{name}` again"))
                .with_help(
                    "marsc inlines every call while compiling; write the recursion as a loop",
                ),
            );
            return (Value::Poison, Origin::NEW);
        }
        if self.frames.len() >= MAX_CALL_DEPTH {
            self.report(
                Diagnostic::error(
                    format!("calls nested more than {MAX_CALL_DEPTH} deep"),
                    span,
                )
                .with_label("one call too many"),
            );
            return (Value::Poison, Origin::NEW);
        }
        let caller_scope = std::mem::replace(&mut self.scope, locals);
        self.frames.push(Frame {
            function: function.clone(),
            caller_scope,
            caller_loops: self.loops,
        });
        self.loops = 0;
        let reported = self.diagnostics.len();
        let result = match self.block(&function.def.body) {
            Flow::Return(binding) => binding,
            _ => Binding::Plain(Value::None),
        };
        let frame = self.frames.pop().expect("pushed above");
        self.scope = frame.caller_scope;
        self.loops = frame.caller_loops;
        for diagnostic in &mut self.diagnostics[reported..] {
            diagnostic
                .secondary
                .push((span, format!("in this call of `{name}`")));
        }
        let outer_update = self.updates_in_calls[updates_before..]
            .iter()
            .find(|(root, _)| *root < objects_before)
            .map(|(_, at)| *at);
        if self.frames.is_empty() {
            self.updates_in_calls.clear();
        }
        if let (Some(updated), false) = (outer_update, whole_statement) {
            // The rest of the expression may already hold, or later read, a value
            // of the updated tensor: Python would see the update through it.
            self.report(
                Diagnostic::error(
                    format!(
                        "not supported yet: a call that updates a tensor in place inside a larger expression (`{name}` does)"
                    ),
                    span,
                )
                .with_label("updates one of its caller's tensors")
                .with_secondary(updated, "the update")
                .with_help(format!(
                    "call it as a statement of its own (`{name}(...)` or `y = {name}(...)`), then use the results"
                )),
            );
            return (Value::Poison, Origin::NEW);
        }
        let value = self.resolve(&result, span);
        (value, Origin::Same(result))
    }

    /// Finds a name as Python does: the running function's locals, then the script's
    /// globals (a name the function assigns is local throughout its body).
    pub(super) fn find_name(&self, name: &str) -> Found {
        if let Some(binding) = self.scope.get(name) {
            return Found::Bound(binding.clone());
        }
        let Some(outermost) = self.frames.first() else {
            return Found::Missing;
        };
        let innermost = self.frames.last().expect("frames is not empty");
        if innermost.function.locals.contains(name) {
            return Found::UnboundLocal;
        }
        match outermost.caller_scope.get(name) {
            Some(binding) => Found::Bound(binding.clone()),
            None => Found::Missing,
        }
    }

    /// Every binding that can reach an object: the running scope and its callers'.
    pub(super) fn all_bindings(&self) -> impl Iterator<Item = &Binding> {
        self.scope.values().chain(
            self.frames
                .iter()
                .flat_map(|frame| frame.caller_scope.values()),
        )
    }

    /// `[element for target in iter if cond ...]`: unrolled now. Its loop names are
    /// its own, as in Python 3 (a name of the same name outside is left alone).
    pub(super) fn list_comprehension(
        &mut self,
        element: &Expr,
        generators: &[Comprehension],
        span: Span,
    ) -> (Value, Origin) {
        let names: Vec<String> = generators
            .iter()
            .flat_map(|g| g.target.names())
            .map(|n| n.name.clone())
            .collect();
        let saved: Vec<(String, Option<Binding>)> = names
            .iter()
            .map(|name| (name.clone(), self.scope.get(name).cloned()))
            .collect();
        let mut items = Vec::new();
        let complete = self.comprehend(element, generators, span, &mut items);
        for (name, old) in saved.into_iter().rev() {
            match old {
                Some(binding) => self.scope.insert(name, binding),
                None => self.scope.remove(&name),
            };
        }
        if !complete {
            return (Value::Poison, Origin::NEW);
        }
        let binding = Binding::Seq {
            items: items.into(),
            is_list: true,
            class: None,
        };
        (self.resolve(&binding, span), Origin::Same(binding))
    }

    /// One `for` clause of a comprehension and the clauses after it; `false` when
    /// it stopped on an error.
    fn comprehend(
        &mut self,
        element: &Expr,
        generators: &[Comprehension],
        span: Span,
        items: &mut Vec<Binding>,
    ) -> bool {
        let Some((first, rest)) = generators.split_first() else {
            let binding = self.bind_expr(element);
            let poisoned = matches!(binding, Binding::Plain(Value::Poison));
            items.push(binding);
            return !poisoned;
        };
        let iterable = self.bind_expr(&first.iter);
        let Some(values) = self.items_of(&iterable, first.iter.span, "iterate over") else {
            return false;
        };
        'items: for value in values {
            if !self.count_iteration(span) {
                return false;
            }
            let value = self.item_binding(value, first.iter.span);
            self.assign_target(&first.target, value, first.iter.span);
            for condition in &first.ifs {
                match self.condition(condition) {
                    Some(true) => {}
                    Some(false) => continue 'items,
                    None => return false,
                }
            }
            if !self.comprehend(element, rest, span, items) {
                return false;
            }
        }
        true
    }

    /// `body if test else orelse`: only the branch taken is evaluated.
    pub(super) fn if_expression(
        &mut self,
        test: &Expr,
        body: &Expr,
        orelse: &Expr,
    ) -> (Value, Origin) {
        match self.condition(test) {
            Some(true) => self.eval_origin(body),
            Some(false) => self.eval_origin(orelse),
            None => (Value::Poison, Origin::NEW),
        }
    }
}

/// One item of an iterable before it is bound.
pub(crate) enum Item {
    /// An item with its own identity (a tuple's or list's element).
    Bound(Binding),
    Value(Value),
    /// Row `index` of a tensor (a view of it).
    Row {
        tensor: Binding,
        index: usize,
    },
}

/// One argument of a call: its keyword (with the keyword's span), its binding and
/// the span of the argument.
type CallBinding = (Option<(String, Span)>, Binding, Span);

/// A call's arguments bound to the function's parameters: the function's initial
/// locals, or Python's error.
fn bind_call(
    function: &UserFunction,
    args: Vec<CallBinding>,
    span: Span,
) -> Result<HashMap<String, Binding>, Diagnostic> {
    let def = &function.def;
    let name = &def.name.name;
    let params = &def.params;
    let mut slots: Vec<Option<Binding>> = vec![None; params.len()];
    let given = args
        .iter()
        .filter(|(keyword, ..)| keyword.is_none())
        .count();
    let mut positional = 0;
    for (keyword, binding, arg_span) in args {
        match keyword {
            None => {
                if positional >= params.len() {
                    let most = params.len();
                    let least = params.iter().filter(|p| p.default.is_none()).count();
                    let takes = if least == most {
                        format!("{most} positional argument{}", plural(most))
                    } else {
                        format!("from {least} to {most} positional arguments")
                    };
                    let verb = if given == 1 { "was" } else { "were" };
                    return Err(Diagnostic::error(
                        format!("`{name}()` takes {takes} but {given} {verb} given"),
                        arg_span,
                    )
                    .with_label("unexpected argument")
                    .with_secondary(def.header, "defined here"));
                }
                slots[positional] = Some(binding);
                positional += 1;
            }
            Some((keyword, keyword_span)) => {
                let Some(index) = params.iter().position(|p| p.name.name == keyword) else {
                    let mut diagnostic = Diagnostic::error(
                        format!("`{name}()` got an unexpected keyword argument `{keyword}`"),
                        keyword_span,
                    )
                    .with_secondary(def.header, "defined here");
                    let known = params.iter().map(|p| p.name.name.as_str());
                    if let Some(suggestion) = super::names::closest(&keyword, known) {
                        diagnostic = diagnostic.with_help(format!("did you mean `{suggestion}`?"));
                    }
                    return Err(diagnostic);
                };
                if slots[index].is_some() {
                    return Err(Diagnostic::error(
                        format!("`{name}()` got multiple values for argument `{keyword}`"),
                        arg_span,
                    ));
                }
                slots[index] = Some(binding);
            }
        }
    }
    let mut locals = HashMap::new();
    let mut missing = Vec::new();
    for ((param, slot), default) in params.iter().zip(slots).zip(&function.defaults) {
        match slot.or_else(|| default.clone()) {
            Some(binding) => {
                locals.insert(param.name.name.clone(), binding);
            }
            None => missing.push(format!("`{}`", param.name.name)),
        }
    }
    if !missing.is_empty() {
        return Err(Diagnostic::error(
            format!(
                "`{name}()` missing {} required argument{}: {}",
                missing.len(),
                plural(missing.len()),
                missing.join(", ")
            ),
            span,
        )
        .with_secondary(def.header, "defined here"));
    }
    Ok(locals)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The names a block assigns (its function's locals): targets of `=`, `OP=`, `for`
/// and `def`, through nested blocks.
pub(crate) fn assigned_names(body: &[Stmt], names: &mut HashSet<String>) {
    for stmt in body {
        match &stmt.kind {
            StmtKind::Assign { target, .. } | StmtKind::AugAssign { target, .. } => {
                names.insert(target.name.clone());
            }
            StmtKind::Unpack { target, .. } => {
                names.extend(target.names().into_iter().map(|n| n.name.clone()));
            }
            StmtKind::For {
                target,
                body,
                orelse,
                ..
            } => {
                names.extend(target.names().into_iter().map(|n| n.name.clone()));
                assigned_names(body, names);
                assigned_names(orelse.as_deref().unwrap_or(&[]), names);
            }
            StmtKind::While { body, orelse, .. } => {
                assigned_names(body, names);
                assigned_names(orelse.as_deref().unwrap_or(&[]), names);
            }
            StmtKind::If { branches, orelse } => {
                for branch in branches {
                    assigned_names(&branch.body, names);
                }
                assigned_names(orelse.as_deref().unwrap_or(&[]), names);
            }
            StmtKind::Def(def) => {
                names.insert(def.name.name.clone());
            }
            StmtKind::Import { module, alias } => {
                if let Some(name) = alias.as_ref().or(module.first()) {
                    names.insert(name.name.clone());
                }
            }
            // Updates an object; binds no name (`x[0] = 1` does not make `x` local).
            StmtKind::SetItem { .. }
            | StmtKind::Expr(_)
            | StmtKind::Return(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Pass
            | StmtKind::Assert { .. } => {}
        }
    }
}
