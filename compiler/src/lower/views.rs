//! Evaluating an expression *as a reference*: besides its value, what object it
//! is. A name is the object it is bound to, `x.execute()` is `x` itself (the
//! oracle's reading of that Mars method), `x.rechunk(...)` a view of `x` (its own
//! chunks, `x`'s values), and NumPy's view functions give a view of their
//! argument's object; everything else makes a new
//! object. This is decided from the expression (which function is called), never
//! from graph node identity: a no-op `astype` returns its input node, but NumPy's
//! `astype` copies.
//!
//! NumPy's functions that return a view, as `np.shares_memory` shows, and how marsc
//! treats each: basic indexing (except a scalar element), `.T`, `transpose`,
//! `swapaxes`, `expand_dims`, `squeeze` — views; `broadcast_to` — a read-only view;
//! `reshape`, `ravel` — a view of a tensor known to be C-contiguous, otherwise opaque
//! (see [`super::objects`]); `asarray`, `array(copy=False)`, `astype(copy=False)`
//! — the argument itself when nothing is converted. Copies: `flatten`, `copy`,
//! `astype`, `array`/`tensor`, and every element-wise function, reduction, scan,
//! join and creation function.

use super::bind::CallArg;
use super::control::Found;
use super::indexing::slice_positions;
use super::library::{Builtin, FuncId};
use super::objects::{Binding, Object, ObjectId, ObjectKind, Opaque, View, ViewStep};
use super::value::Value;
use super::Lowerer;
use crate::ops::ShapeOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::ast::{Expr, ExprKind, SubscriptItem, UnaryOp};
use marsc_grammar::{Diagnostic, Span};

/// What object an evaluated expression is.
#[derive(Clone, Debug)]
pub(super) enum Origin {
    /// A new value. `scalar`, for a 0-d tensor: whether NumPy would give a NumPy
    /// scalar rather than a 0-d array (`None`: marsc cannot tell).
    Fresh { scalar: Option<bool> },
    /// Exactly what this binding denotes.
    Same(Binding),
    /// A view of `base`, made from its value `base_value`.
    ViewOf {
        base: ObjectId,
        base_value: TileableId,
        kind: ViewKind,
        what: &'static str,
    },
    /// marsc cannot tell; checked conservatively.
    Unknown,
}

/// How a view function shares its argument's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ViewKind {
    Always,
    /// `broadcast_to`: NumPy's view is read-only.
    ReadOnly,
    /// `reshape`/`ravel`: a view when the argument is C-contiguous, else a copy.
    IfContiguous,
}

impl Origin {
    const NEW_ARRAY: Origin = Origin::Fresh {
        scalar: Some(false),
    };
    const NEW_SCALAR: Origin = Origin::Fresh { scalar: Some(true) };
    pub(super) const NEW: Origin = Origin::Fresh { scalar: None };
}

impl Lowerer<'_> {
    /// The binding `name = expr` makes.
    pub(super) fn bind_expr(&mut self, expr: &Expr) -> Binding {
        match &expr.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                let is_list = matches!(expr.kind, ExprKind::List(_));
                let items: Vec<Binding> = items.iter().map(|item| self.bind_expr(item)).collect();
                Binding::Seq {
                    items: items.into(),
                    is_list,
                    class: None,
                }
            }
            _ => {
                let (value, origin) = self.eval_origin(expr);
                self.binding_for(value, origin, expr.span)
            }
        }
    }

    /// A binding for an evaluated value with its origin.
    pub(super) fn binding_for(&mut self, value: Value, origin: Origin, span: Span) -> Binding {
        if value.is_poison() {
            return Binding::Plain(Value::Poison);
        }
        match (origin, value) {
            (Origin::Same(binding), _) => binding,
            (
                Origin::ViewOf {
                    base,
                    base_value,
                    kind,
                    what,
                },
                Value::Tensor(result),
            ) => Binding::Object(self.view_object(base, base_value, result, kind, what, span)),
            (Origin::Fresh { scalar }, value) => self.fresh_binding(value, scalar, span),
            (_, value) => self.suspect_binding(value, span),
        }
    }

    /// Evaluates `expr`, also saying what object its value is. Names, attributes,
    /// calls and subscripts are evaluated here ([`Lowerer::eval`] comes here for them).
    pub(super) fn eval_origin(&mut self, expr: &Expr) -> (Value, Origin) {
        match &expr.kind {
            ExprKind::Name(name) => match self.find_name(name) {
                Found::Bound(binding) => (self.resolve(&binding, expr.span), Origin::Same(binding)),
                _ => (self.lookup(name, expr.span), Origin::NEW),
            },
            ExprKind::IfExp { test, body, orelse } => self.if_expression(test, body, orelse),
            ExprKind::ListComp {
                element,
                generators,
            } => self.list_comprehension(element, generators, expr.span),
            ExprKind::Attribute { value, attr } => {
                let (object, origin) = self.eval_origin(value);
                let result = self.attribute(object.clone(), value.span, attr);
                let origin = match (&object, &result) {
                    (Value::Tensor(base), Value::Tensor(_)) if attr.name == "T" => {
                        self.view_origin(origin, *base, ViewKind::Always, "`.T`", expr.span)
                    }
                    (Value::Tensor(receiver), Value::Method(_, func)) => {
                        match self.object_of(origin, *receiver, expr.span) {
                            Some(receiver) => Origin::Same(Binding::Method(receiver, *func)),
                            None => Origin::NEW,
                        }
                    }
                    // `r.Q` is the object `r[0]` is.
                    (Value::Tuple(_, Some(class)), _) => match class.field(&attr.name) {
                        Some(index) => bound_item(origin, index),
                        None => Origin::NEW,
                    },
                    _ => Origin::NEW,
                };
                (result, origin)
            }
            ExprKind::Call { func, args } => self.eval_call_origin(func, args, expr.span),
            ExprKind::Subscript { value, items } => {
                let (object, origin) = self.eval_origin(value);
                self.subscript_origin(object, origin, value.span, items, expr.span)
            }
            ExprKind::Binary { .. } | ExprKind::Unary { .. } | ExprKind::Compare { .. } => {
                (self.eval(expr), Origin::NEW_SCALAR)
            }
            ExprKind::Tuple(_)
            | ExprKind::List(_)
            | ExprKind::BoolOp { .. }
            | ExprKind::CompareChain { .. } => (self.eval(expr), Origin::Unknown),
            _ => (self.eval(expr), Origin::NEW),
        }
    }

    /// `object[items]`, with the result's origin: a view of a tensor (or, for a
    /// scalar element, a new value), or the item of a tuple or list.
    pub(super) fn subscript_origin(
        &mut self,
        object: Value,
        origin: Origin,
        value_span: Span,
        items: &[SubscriptItem],
        span: Span,
    ) -> (Value, Origin) {
        {
            {
                let expr_span = span;
                let result = self.subscript(object.clone(), value_span, items, expr_span);
                let origin = match (&object, &result) {
                    (_, Value::Poison) => Origin::NEW,
                    (Value::Tensor(base), Value::Tensor(element)) => {
                        if self.shape(*element).is_empty() && !has_ellipsis(items) {
                            Origin::NEW_SCALAR
                        } else if self.is_selection(*element) {
                            // Boolean indexing copies, as NumPy's advanced indexing does.
                            Origin::NEW
                        } else {
                            self.view_origin(origin, *base, ViewKind::Always, "a slice", expr_span)
                        }
                    }
                    (Value::Tuple(..) | Value::List(_), _) => sequence_item(origin, items),
                    _ => Origin::NEW,
                };
                (result, origin)
            }
        }
    }

    /// A call, evaluated as [`Lowerer::eval`] does, with its result's origin.
    fn eval_call_origin(
        &mut self,
        func: &Expr,
        args: &[marsc_grammar::ast::Arg],
        span: Span,
    ) -> (Value, Origin) {
        let whole_statement = std::mem::take(&mut self.whole_statement_call);
        let (callee, receiver) = match &func.kind {
            ExprKind::Attribute { value, attr } => {
                let (object, origin) = self.eval_origin(value);
                if let (Value::Str(template), "format") = (&object, attr.name.as_str()) {
                    let template = template.clone();
                    return (self.str_format(&template, args, span), Origin::NEW);
                }
                let callee = self.attribute(object.clone(), value.span, attr);
                (callee, Some((object, origin)))
            }
            _ => (self.eval(func), None),
        };
        if let Value::UserFunction(function) = callee {
            return self.call_user_function(function, args, span, whole_statement);
        }
        let receiver_span = match &func.kind {
            ExprKind::Attribute { value, .. } => value.span,
            _ => func.span,
        };
        let mut evaluated = Vec::with_capacity(args.len());
        let call_args: Vec<CallArg> = args
            .iter()
            .map(|arg| {
                let (value, origin) = self.eval_origin(&arg.value);
                let keyword = arg.name.as_ref().map(|n| (n.name.clone(), n.span));
                evaluated.push((keyword.as_ref().map(|k| k.0.clone()), value.clone(), origin));
                CallArg {
                    keyword,
                    value,
                    span: arg.value.span,
                }
            })
            .collect();
        if callee.is_poison() {
            return (Value::Poison, Origin::NEW);
        }
        let result = self.call(callee.clone(), func.span, receiver_span, call_args, span);
        let result = self.value_or_report(result);
        if result.is_poison() {
            return (result, Origin::NEW);
        }
        // `a.sort()` (and `a.partition(kth)`) sorts `a` in place, `random.shuffle(a)`
        // shuffles it: the new value is written into `a`'s object, and the call gives
        // None.
        let in_place = match &callee {
            Value::Method(_, id) => matches!(
                id.signature().builtin,
                super::library::Builtin::Sorting(
                    super::sort::Sorting::SortMethod | super::sort::Sorting::PartitionMethod
                )
            )
            .then(|| receiver.clone()),
            Value::Function(id) | Value::StreamMethod(_, id) => matches!(
                id.signature().builtin,
                super::library::Builtin::Random(super::library::RandomKind::Shuffle)
            )
            .then(|| {
                evaluated
                    .first()
                    .map(|(_, value, origin)| (value.clone(), origin.clone()))
            }),
            _ => None,
        };
        if let Some(target) = in_place {
            if !whole_statement {
                // The rest of the expression may hold the tensor's value from before
                // the update (`print(v, v.sort())`), where Python sees the update.
                self.report(
                    Diagnostic::error(
                        "not supported yet: a call that updates a tensor in place inside a larger expression",
                        span,
                    )
                    .with_label("updates the tensor in place and gives None")
                    .with_help("make the call a statement of its own, then use the tensor"),
                );
                return (Value::Poison, Origin::NEW);
            }
            if let (Value::Tensor(new), Some((Value::Tensor(base), origin))) = (&result, &target) {
                if let Some(object) = self.object_of(origin.clone(), *base, span) {
                    if let Err(diagnostic) = self.write_object(object, *new, span) {
                        self.report(diagnostic);
                    }
                }
            }
            return (Value::None, Origin::NEW);
        }
        let (func_id, base) = match callee {
            Value::Method(_, id) => (id, receiver),
            Value::Function(id) => {
                let first = id.signature().params.first().map(|p| p.name);
                let base = evaluated
                    .iter()
                    .position(|(keyword, ..)| keyword.is_none())
                    .filter(|&i| i == 0)
                    .or_else(|| {
                        evaluated
                            .iter()
                            .position(|(keyword, ..)| keyword.as_deref() == first)
                    })
                    .map(|i| (evaluated[i].1.clone(), evaluated[i].2.clone()));
                (id, base)
            }
            Value::ScalarType(_) => return (result, Origin::NEW_SCALAR),
            _ => return (result, Origin::NEW),
        };
        let origin = self.call_origin(func_id, base, &evaluated, &result, span);
        (result, origin)
    }

    /// The origin of a library call's result; `base` is its first argument (or
    /// receiver) with its origin.
    fn call_origin(
        &mut self,
        func: FuncId,
        base: Option<(Value, Origin)>,
        args: &[(Option<String>, Value, Origin)],
        result: &Value,
        span: Span,
    ) -> Origin {
        let signature = func.signature();
        let (base_value, base_origin) = match base {
            Some((Value::Tensor(id), origin)) => (Some(id), origin),
            _ => (None, Origin::NEW),
        };
        let keyword = |name: &str| {
            args.iter()
                .find(|(keyword, ..)| keyword.as_deref() == Some(name))
                .map(|(_, value, _)| value.clone())
        };
        // `copy=False` (or NumPy 2's `copy=None`): no copy unless one is needed.
        let no_copy =
            |value: Option<Value>| matches!(value, Some(Value::Bool(false) | Value::None));
        let view = |this: &mut Self, kind, what| match base_value {
            Some(base) => this.view_origin(base_origin.clone(), base, kind, what, span),
            None => Origin::NEW_ARRAY,
        };
        let same_if_unconverted = |origin: Origin| match (base_value, result) {
            (Some(base), Value::Tensor(id)) if base == *id => origin,
            _ => Origin::NEW_ARRAY,
        };
        match signature.builtin {
            Builtin::Execute if signature.name == "execute" => base_origin,
            // A rechunked tensor has its own chunks but NumPy's (the oracle's) values:
            // a view of its base, re-derived after an in-place update of the base.
            Builtin::Rechunk => view(self, ViewKind::Always, "rechunk"),
            Builtin::Execute | Builtin::Copy => Origin::NEW,
            Builtin::Astype => {
                let copy = keyword("copy").or_else(|| {
                    args.iter()
                        .filter(|(keyword, ..)| keyword.is_none())
                        .nth(4)
                        .map(|(_, value, _)| value.clone())
                });
                if no_copy(copy) {
                    same_if_unconverted(base_origin)
                } else {
                    Origin::NEW
                }
            }
            Builtin::Tensor => {
                let copy = keyword("copy");
                let asarray = signature.name == "asarray" && copy != Some(Value::Bool(true));
                if asarray || no_copy(copy) {
                    same_if_unconverted(base_origin)
                } else {
                    Origin::NEW_ARRAY
                }
            }
            Builtin::Transpose | Builtin::TransposeMethod => {
                view(self, ViewKind::Always, "`transpose`")
            }
            Builtin::SwapAxes => view(self, ViewKind::Always, "`swapaxes`"),
            Builtin::ExpandDims => view(self, ViewKind::Always, "`expand_dims`"),
            Builtin::Squeeze => view(self, ViewKind::Always, "`squeeze`"),
            Builtin::BroadcastTo => view(self, ViewKind::ReadOnly, "`broadcast_to`"),
            Builtin::Reshape | Builtin::ReshapeMethod => {
                view(self, ViewKind::IfContiguous, "`reshape`")
            }
            Builtin::Ravel if signature.name == "ravel" => {
                view(self, ViewKind::IfContiguous, "`ravel`")
            }
            Builtin::Ravel => Origin::NEW_ARRAY,
            Builtin::Unary(_)
            | Builtin::Binary(_)
            | Builtin::Reduce(_)
            | Builtin::MatMul
            | Builtin::Dot
            | Builtin::Abs
            | Builtin::Choose(_)
            | Builtin::Random(_) => Origin::NEW_SCALAR,
            Builtin::Where
            | Builtin::Clip
            | Builtin::Print
            | Builtin::Save
            | Builtin::ToZarr
            | Builtin::ToHdf5
            | Builtin::ToFile
            | Builtin::Savez { .. }
            | Builtin::Seed
            | Builtin::Len => Origin::NEW,
            _ => Origin::NEW_ARRAY,
        }
    }

    /// The object `base[...]` is when it is assigned into (`result` is its value):
    /// a view of `base`'s object even for a single element, which reading makes a
    /// new NumPy scalar. `None` when `base` is no object a name can reach.
    pub(super) fn indexed_object(
        &mut self,
        base_origin: Origin,
        base: TileableId,
        result: TileableId,
        span: Span,
    ) -> Option<ObjectId> {
        let origin = self.view_origin(base_origin, base, ViewKind::Always, "a slice", span);
        self.object_of(origin, result, span)
    }

    /// The object a tensor value with this origin is, if a name can reach it.
    pub(super) fn origin_object(
        &mut self,
        origin: Origin,
        value: TileableId,
        span: Span,
    ) -> Option<ObjectId> {
        self.object_of(origin, value, span)
    }

    /// The origin of a view of `base` (an evaluated value with its origin).
    fn view_origin(
        &mut self,
        base_origin: Origin,
        base: TileableId,
        kind: ViewKind,
        what: &'static str,
        span: Span,
    ) -> Origin {
        match base_origin {
            Origin::Same(Binding::Object(object)) => Origin::ViewOf {
                base: object,
                base_value: base,
                kind,
                what,
            },
            origin @ Origin::ViewOf { .. } => match self.object_of(origin, base, span) {
                Some(object) => Origin::ViewOf {
                    base: object,
                    base_value: base,
                    kind,
                    what,
                },
                None => Origin::NEW_ARRAY,
            },
            Origin::Unknown => Origin::Unknown,
            // A view of a value no name can reach is as good as a new array.
            _ => Origin::NEW_ARRAY,
        }
    }

    /// The object an origin denotes (`value` is what it evaluated to), made if it is
    /// a view not bound yet.
    fn object_of(&mut self, origin: Origin, value: TileableId, span: Span) -> Option<ObjectId> {
        match origin {
            Origin::Same(Binding::Object(object)) => Some(object),
            Origin::ViewOf {
                base,
                base_value,
                kind,
                what,
            } => Some(self.view_object(base, base_value, value, kind, what, span)),
            _ => None,
        }
    }

    /// The object for `result`, made from `base` (whose value was `base_value`) by
    /// a view function. The steps are the shape ops between the two nodes.
    pub(super) fn view_object(
        &mut self,
        base: ObjectId,
        base_value: TileableId,
        result: TileableId,
        kind: ViewKind,
        what: &'static str,
        span: Span,
    ) -> ObjectId {
        let root = self.root_of(base);
        let root_version = self.base(root).version;
        let opaque = |what: String| {
            ObjectKind::Opaque(Opaque {
                root,
                value: result,
                root_version,
                what,
            })
        };
        let walked = self.shape_steps(base_value, result);
        let kind = match (&self.object(base).kind, walked) {
            (ObjectKind::Opaque(_), _) => {
                opaque(format!("{what} of a value that may share memory"))
            }
            (_, None) => opaque(format!("the result of {what}")),
            (_, Some(_)) if kind == ViewKind::IfContiguous && !self.object_contiguous(base) => {
                opaque(format!(
                    "the result of {what} (a view or a copy, depending on NumPy's memory layout)"
                ))
            }
            (parent, Some(walked)) => {
                let (mut steps, parent_read_only) = match parent {
                    ObjectKind::View(view) => (view.steps.to_vec(), view.read_only),
                    _ => (Vec::new(), false),
                };
                let keeps_layout = walked.iter().all(|step| {
                    matches!(
                        step.op,
                        TileOp::Shape(ShapeOp::Reshape)
                            | TileOp::Rechunk
                            | TileOp::Shape(ShapeOp::ExpandDims { .. })
                            | TileOp::Shape(ShapeOp::Squeeze { .. })
                    )
                });
                let contiguous = self.object_contiguous(base) && keeps_layout;
                steps.extend(walked);
                ObjectKind::View(View {
                    root,
                    steps: steps.into(),
                    cached: (root_version, result),
                    read_only: parent_read_only || kind == ViewKind::ReadOnly,
                    contiguous,
                })
            }
        };
        self.add_object(Object {
            created: span,
            kind,
        })
    }

    /// The single-input shape ops leading from `from` to `to`, in order; `None` when
    /// `to` is not reached that way.
    fn shape_steps(&self, from: TileableId, to: TileableId) -> Option<Vec<ViewStep>> {
        let mut steps = Vec::new();
        let mut at = to;
        while at != from {
            let node = self.node(at);
            let is_shape_op = matches!(
                node.op,
                TileOp::Index { .. }
                    | TileOp::Shape(ShapeOp::Transpose { .. })
                    | TileOp::Shape(ShapeOp::Reshape)
                    | TileOp::Shape(ShapeOp::ExpandDims { .. })
                    | TileOp::Shape(ShapeOp::Squeeze { .. })
                    | TileOp::Shape(ShapeOp::BroadcastTo)
                    | TileOp::Rechunk
            );
            if !is_shape_op || node.inputs.len() != 1 || steps.len() > 64 {
                return None;
            }
            steps.push(ViewStep {
                op: node.op.clone(),
                shape: node.shape.clone(),
                dtype: node.dtype,
                nsplits: node.nsplits.clone(),
                span: node.span,
            });
            at = node.inputs[0];
        }
        steps.reverse();
        Some(steps)
    }
}

/// Whether a subscript has a `...`: a 0-d result is then a view (a 0-d array),
/// while without one it is a scalar element, a copy.
fn has_ellipsis(items: &[SubscriptItem]) -> bool {
    fn is_ellipsis(expr: &Expr) -> bool {
        match &expr.kind {
            ExprKind::Ellipsis => true,
            ExprKind::Tuple(items) => items.iter().any(is_ellipsis),
            _ => false,
        }
    }
    items
        .iter()
        .any(|item| matches!(item, SubscriptItem::Expr(expr) if is_ellipsis(expr)))
}

/// Item `index` of a tuple's binding (a named tuple's field), if the tuple is bound.
fn bound_item(origin: Origin, index: usize) -> Origin {
    match origin {
        Origin::Same(Binding::Seq { items, .. }) if index < items.len() => {
            Origin::Same(items[index].clone())
        }
        _ => Origin::Unknown,
    }
}

/// `t[i]` of a tuple or list binding with a literal `i` is that item's binding, and
/// `t[a:b:c]` with literal bounds a tuple or list of those items' bindings.
fn sequence_item(origin: Origin, items: &[SubscriptItem]) -> Origin {
    let Origin::Same(Binding::Seq {
        items: bound,
        is_list,
        ..
    }) = origin
    else {
        return Origin::Unknown;
    };
    let len = bound.len() as i64;
    match items {
        [SubscriptItem::Expr(index)] => {
            match literal_int(index).map(|i| if i < 0 { i + len } else { i }) {
                Some(i) if (0..len).contains(&i) => Origin::Same(bound[i as usize].clone()),
                _ => Origin::Unknown,
            }
        }
        [SubscriptItem::Slice {
            lower, upper, step, ..
        }] => {
            let part = |expr: &Option<Expr>| match expr {
                None => Some(None),
                Some(expr) => literal_int(expr).map(Some),
            };
            let (Some(start), Some(stop), Some(step)) = (part(lower), part(upper), part(step))
            else {
                return Origin::Unknown;
            };
            let step = step.unwrap_or(1);
            if step == 0 {
                return Origin::Unknown;
            }
            let picked: Vec<Binding> = slice_positions(len, start, stop, step)
                .map(|i| bound[i as usize].clone())
                .collect();
            // A slice of a named tuple is a plain tuple, as in Python.
            Origin::Same(Binding::Seq {
                items: picked.into(),
                is_list,
                class: None,
            })
        }
        _ => Origin::Unknown,
    }
}

/// An integer literal, possibly negated.
fn literal_int(expr: &Expr) -> Option<i64> {
    match &expr.kind {
        ExprKind::Int(i) => Some(*i),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
            ..
        } => match operand.kind {
            ExprKind::Int(i) => i.checked_neg(),
            _ => None,
        },
        _ => None,
    }
}
