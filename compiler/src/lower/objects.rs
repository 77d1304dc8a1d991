//! Object identity: names denote objects, as in Python. A tensor bound to a name is
//! an *object* whose current value (a graph node) can change when it is updated in
//! place (`x += 1`, later `x[i] = v`), and every name bound to the same object sees
//! the change. A *view* (a basic slice, `.T`, `reshape` of a contiguous tensor, ...)
//! is an object that remembers its root object and the shape steps that derive it,
//! and re-derives its value when the root has changed since it last looked.
//!
//! Where marsc cannot tell whether NumPy would share memory (a `reshape` of a tensor
//! whose memory layout it does not track, say), the object is *opaque*: it keeps the
//! value it was made with, and reading it after its root was updated in place, or
//! updating it in place, is a "not supported yet" error naming both places — never a
//! value that differs from NumPy's.

use super::library::FuncId;
use super::value::{TupleClass, Value};
use super::{LowerResult, Lowerer};
use crate::ops::ShapeOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;
use std::rc::Rc;

/// Index of an object in the lowerer's object table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ObjectId(u32);

/// What a name is bound to.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    /// A value that holds no tensor (Python values, namespaces, functions, dtypes).
    Plain(Value),
    /// A tensor object.
    Object(ObjectId),
    /// A tuple or list, whose items keep their own identity (`t = (x, y)`); a named
    /// tuple's class (`r = mt.linalg.qr(a)`) is kept with it.
    Seq {
        items: Rc<[Binding]>,
        is_list: bool,
        class: Option<&'static TupleClass>,
    },
    /// A bound method (`m = x.sum`): its receiver is an object.
    Method(ObjectId, FuncId),
}

/// For a 0-d tensor: whether NumPy holds it as an immutable NumPy scalar (a
/// reduction's result, `x[0]` of a vector, `np.float64(1)`), which `+=` rebinds, or
/// as a 0-d array (`np.array(5)`, `np.ones(())`), which `+=` updates in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ZeroD {
    Scalar,
    Array,
    Unknown,
}

#[derive(Clone)]
pub(crate) struct Object {
    /// Where the object was made (for messages).
    pub created: Span,
    pub kind: ObjectKind,
}

#[derive(Clone)]
pub(crate) enum ObjectKind {
    Base(Base),
    View(View),
    Opaque(Opaque),
}

/// An object that owns its data.
#[derive(Clone)]
pub(crate) struct Base {
    pub value: TileableId,
    /// How many times it was updated in place.
    pub version: u32,
    /// The last in-place update.
    pub updated: Option<Span>,
    /// Known to be C-contiguous in NumPy (so `reshape`/`ravel` of it are views).
    pub contiguous: bool,
    pub zero_d: ZeroD,
}

/// An object that shares its root's data, derived from it by `steps`.
#[derive(Clone)]
pub(crate) struct View {
    pub root: ObjectId,
    pub steps: Rc<[ViewStep]>,
    /// The value for the root's version it was last derived from.
    pub cached: (u32, TileableId),
    /// A view of `broadcast_to` (NumPy's are read-only).
    pub read_only: bool,
    pub contiguous: bool,
}

/// One step of a view's derivation, replayed on the root's current value. Replaying
/// with the recorded splits is sound because an in-place update keeps the root's
/// chunking.
#[derive(Clone, Debug)]
pub(crate) struct ViewStep {
    pub op: TileOp,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub nsplits: Vec<Vec<usize>>,
    pub span: Span,
}

/// An object that may or may not share its root's data in NumPy.
#[derive(Clone)]
pub(crate) struct Opaque {
    pub root: ObjectId,
    pub value: TileableId,
    /// The root's version when this object was made.
    pub root_version: u32,
    /// What made it, for messages (`` `reshape` of a tensor whose layout ... ``).
    pub what: String,
}

impl Lowerer<'_> {
    pub(super) fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id.0 as usize]
    }

    fn object_mut(&mut self, id: ObjectId) -> &mut Object {
        &mut self.objects[id.0 as usize]
    }

    pub(super) fn add_object(&mut self, object: Object) -> ObjectId {
        self.objects.push(object);
        ObjectId(self.objects.len() as u32 - 1)
    }

    /// A new object owning `value`. `scalar` says, for a 0-d value, whether NumPy
    /// would hold it as a NumPy scalar (`None`: cannot tell).
    pub(super) fn new_base(
        &mut self,
        value: TileableId,
        scalar: Option<bool>,
        span: Span,
    ) -> ObjectId {
        let zero_d = match scalar {
            _ if !self.shape(value).is_empty() => ZeroD::Array,
            Some(true) => ZeroD::Scalar,
            Some(false) => ZeroD::Array,
            None => ZeroD::Unknown,
        };
        let contiguous = self.known_c_contiguous(value, 64);
        self.add_object(Object {
            created: span,
            kind: ObjectKind::Base(Base {
                value,
                version: 0,
                updated: None,
                contiguous,
                zero_d,
            }),
        })
    }

    /// The object that owns the data `id` shares (itself for a base).
    pub(super) fn root_of(&self, id: ObjectId) -> ObjectId {
        match &self.object(id).kind {
            ObjectKind::Base(_) => id,
            ObjectKind::View(view) => view.root,
            ObjectKind::Opaque(opaque) => opaque.root,
        }
    }

    pub(super) fn base(&self, id: ObjectId) -> &Base {
        match &self.object(id).kind {
            ObjectKind::Base(base) => base,
            _ => unreachable!("roots are bases"),
        }
    }

    /// An object's current value: a view re-derived from its root if the root was
    /// updated since; an error for an opaque object whose root was updated.
    /// The object's value as it stands, without deriving anything new: `None` for a
    /// view not yet re-derived since its root changed, or an opaque object that can
    /// no longer be read (the REPL's handles keep only what is already computed).
    /// Every tensor an object's value can come from: its value, and for a view
    /// or an opaque object also its root's (from which it is derived again).
    pub(crate) fn object_values(&self, id: ObjectId) -> Vec<TileableId> {
        match &self.object(id).kind {
            ObjectKind::Base(base) => vec![base.value],
            ObjectKind::View(view) => vec![view.cached.1, self.base(view.root).value],
            ObjectKind::Opaque(opaque) => vec![opaque.value, self.base(opaque.root).value],
        }
    }

    pub(crate) fn current_value(&self, id: ObjectId) -> Option<TileableId> {
        match &self.object(id).kind {
            ObjectKind::Base(base) => Some(base.value),
            ObjectKind::View(view) => {
                (view.cached.0 == self.base(view.root).version).then_some(view.cached.1)
            }
            ObjectKind::Opaque(opaque) => {
                (opaque.root_version == self.base(opaque.root).version).then_some(opaque.value)
            }
        }
    }

    pub(super) fn object_value(&mut self, id: ObjectId, span: Span) -> LowerResult<TileableId> {
        match &self.object(id).kind {
            ObjectKind::Base(base) => Ok(base.value),
            ObjectKind::View(view) => {
                let root = self.base(view.root);
                if view.cached.0 == root.version {
                    return Ok(view.cached.1);
                }
                let (version, mut value) = (root.version, root.value);
                let steps = view.steps.clone();
                for step in steps.iter() {
                    value = self.replay(step, value);
                }
                if let ObjectKind::View(view) = &mut self.object_mut(id).kind {
                    view.cached = (version, value);
                }
                Ok(value)
            }
            ObjectKind::Opaque(opaque) => {
                let root = self.base(opaque.root);
                if opaque.root_version == root.version {
                    return Ok(opaque.value);
                }
                let updated = root.updated.unwrap_or_default();
                let message = format!(
                    "not supported yet: reading {} after the tensor it was made from was updated in place",
                    opaque.what
                );
                Err(Diagnostic::error(message, span)
                    .with_secondary(self.object(id).created, "made here")
                    .with_secondary(updated, "updated in place here")
                    .with_note("NumPy may share memory between the two here, and marsc cannot tell whether it does")
                    .with_help("make an explicit copy with `.copy()` before updating in place"))
            }
        }
    }

    /// A view step applied to `input`.
    pub(super) fn replay(&mut self, step: &ViewStep, input: TileableId) -> TileableId {
        self.add_with_splits(
            step.op.clone(),
            vec![input],
            step.shape.clone(),
            step.dtype,
            step.nsplits.clone(),
            step.span,
        )
    }

    /// The value a binding denotes now; errors are reported and give `Poison`.
    pub(super) fn resolve(&mut self, binding: &Binding, span: Span) -> Value {
        match binding {
            Binding::Plain(value) => value.clone(),
            Binding::Object(id) => match self.object_value(*id, span) {
                Ok(value) => Value::Tensor(value),
                Err(diagnostic) => self.report(diagnostic),
            },
            Binding::Seq {
                items,
                is_list,
                class,
            } => {
                let values = items.iter().map(|item| self.resolve(item, span)).collect();
                Value::sequence(values, *is_list).named(*class)
            }
            Binding::Method(id, func) => match self.object_value(*id, span) {
                Ok(value) => Value::Method(value, *func),
                Err(diagnostic) => self.report(diagnostic),
            },
        }
    }

    /// A binding for a value made afresh: each tensor in it becomes a new object.
    pub(super) fn fresh_binding(
        &mut self,
        value: Value,
        scalar: Option<bool>,
        span: Span,
    ) -> Binding {
        let (is_list, class) = (matches!(value, Value::List(_)), value.tuple_class());
        match value {
            Value::Tensor(id) => Binding::Object(self.new_base(id, scalar, span)),
            Value::Tuple(items, _) | Value::List(items) if contains_tensor_items(&items) => {
                let items: Vec<Binding> = items
                    .iter()
                    .map(|item| self.fresh_binding(item.clone(), None, span))
                    .collect();
                Binding::Seq {
                    items: items.into(),
                    is_list,
                    class,
                }
            }
            Value::Method(id, func) => Binding::Method(self.new_base(id, None, span), func),
            other => Binding::Plain(other),
        }
    }

    /// A binding for a value whose relation to existing objects marsc could not
    /// follow: a tensor that is the current value of an existing object may be that
    /// object (or share its memory), so it becomes an opaque object of its root.
    pub(super) fn suspect_binding(&mut self, value: Value, span: Span) -> Binding {
        let (is_list, class) = (matches!(value, Value::List(_)), value.tuple_class());
        match value {
            Value::Tensor(id) => match self.object_holding(id) {
                Some(holder) => {
                    let root = self.root_of(holder);
                    Binding::Object(self.add_object(Object {
                        created: span,
                        kind: ObjectKind::Opaque(Opaque {
                            root,
                            value: id,
                            root_version: self.base(root).version,
                            what: "this value".to_string(),
                        }),
                    }))
                }
                None => self.fresh_binding(Value::Tensor(id), None, span),
            },
            Value::Tuple(items, _) | Value::List(items) if contains_tensor_items(&items) => {
                let items: Vec<Binding> = items
                    .iter()
                    .map(|item| self.suspect_binding(item.clone(), span))
                    .collect();
                Binding::Seq {
                    items: items.into(),
                    is_list,
                    class,
                }
            }
            other => self.fresh_binding(other, None, span),
        }
    }

    /// An object whose current value is the node `id`, if any.
    fn object_holding(&self, id: TileableId) -> Option<ObjectId> {
        self.objects.iter().enumerate().find_map(|(index, object)| {
            let value = match &object.kind {
                ObjectKind::Base(base) => base.value,
                ObjectKind::View(view) => view.cached.1,
                ObjectKind::Opaque(opaque) => opaque.value,
            };
            (value == id).then_some(ObjectId(index as u32))
        })
    }

    /// Whether another binding or a view can observe `id`'s data: more than one
    /// reference from the scope (counting references inside tuples and lists), or
    /// any view or opaque object of it.
    pub(super) fn is_shared(&self, id: ObjectId) -> bool {
        let root = self.root_of(id);
        let dependents = self.objects.iter().enumerate().any(|(index, object)| {
            index != id.0 as usize
                && match &object.kind {
                    ObjectKind::Base(_) => false,
                    ObjectKind::View(view) => view.root == root,
                    ObjectKind::Opaque(opaque) => opaque.root == root,
                }
        });
        let references: usize = self
            .all_bindings()
            .map(|binding| count_references(binding, id))
            .sum();
        dependents || root != id || references > 1
    }

    /// Whether NumPy's array for node `id` is known to be C-contiguous: created
    /// arrays are, and so are element-wise results, reductions and joins of
    /// C-contiguous arrays; a transpose, a slice or a broadcast is not known to be.
    /// `depth` bounds the walk (a long chain of updates answers "unknown").
    fn known_c_contiguous(&self, id: TileableId, depth: u32) -> bool {
        let node = self.node(id);
        if node.shape.iter().filter(|&&len| len > 1).count() <= 1 {
            return true;
        }
        if depth == 0 {
            return false;
        }
        match &node.op {
            TileOp::Create(op) => op.c_contiguous(),
            TileOp::BlockCounts
            | TileOp::Compress { .. }
            | TileOp::IndexBlocks { .. }
            | TileOp::Gather { .. }
            | TileOp::BinCounts(_)
            | TileOp::Scatter { .. } => true,
            TileOp::Elementwise(_)
            | TileOp::Reduce(_)
            | TileOp::MatMul
            | TileOp::Concatenate { .. }
            | TileOp::Rechunk
            | TileOp::Shape(ShapeOp::Reshape)
            | TileOp::Shape(ShapeOp::ExpandDims { .. })
            | TileOp::Shape(ShapeOp::Squeeze { .. }) => node
                .inputs
                .iter()
                .all(|&input| self.known_c_contiguous(input, depth - 1)),
            TileOp::Shape(ShapeOp::Transpose { .. })
            | TileOp::Index { .. }
            | TileOp::Shape(ShapeOp::BroadcastTo) => false,
            // Kernel results are owned C-order arrays.
            TileOp::Linalg(_) | TileOp::Sort(_) => true,
        }
    }

    /// Whether `id`'s data is known to be C-contiguous.
    pub(super) fn object_contiguous(&self, id: ObjectId) -> bool {
        match &self.object(id).kind {
            ObjectKind::Base(base) => base.contiguous,
            ObjectKind::View(view) => view.contiguous,
            ObjectKind::Opaque(_) => false,
        }
    }

    /// For a 0-d object: scalar or array (views are always arrays).
    pub(super) fn zero_d_kind(&self, id: ObjectId) -> ZeroD {
        match &self.object(id).kind {
            ObjectKind::Base(base) => base.zero_d,
            ObjectKind::View(_) => ZeroD::Array,
            ObjectKind::Opaque(_) => ZeroD::Unknown,
        }
    }

    /// Makes `value` the root object's new value (rechunked to the root's chunks,
    /// so views replay with their recorded splits) and records the update.
    pub(super) fn set_root_value(&mut self, root: ObjectId, value: TileableId, span: Span) {
        let old = self.base(root).value;
        let nsplits = self.node(old).nsplits.clone();
        let value = if self.node(value).nsplits == nsplits {
            value
        } else {
            let (shape, dtype) = (self.shape(value).to_vec(), self.dtype(value));
            self.add_with_splits(TileOp::Rechunk, vec![value], shape, dtype, nsplits, span)
        };
        if let ObjectKind::Base(base) = &mut self.object_mut(root).kind {
            base.value = value;
            base.version += 1;
            base.updated = Some(span);
        }
        if !self.frames.is_empty() {
            self.updates_in_calls.push((root.0 as usize, span));
        }
    }
}

fn contains_tensor_items(items: &[Value]) -> bool {
    items.iter().any(|item| match item {
        Value::Tensor(_) | Value::Method(..) => true,
        Value::Tuple(inner, _) | Value::List(inner) => contains_tensor_items(inner),
        _ => false,
    })
}

fn count_references(binding: &Binding, id: ObjectId) -> usize {
    match binding {
        Binding::Plain(_) => 0,
        Binding::Object(object) | Binding::Method(object, _) => usize::from(*object == id),
        Binding::Seq { items, .. } => items.iter().map(|item| count_references(item, id)).sum(),
    }
}

/// Whether a binding refers to the list `list` (the same Python list object).
pub(super) fn refers_to_list(binding: &Binding, list: &Rc<[Binding]>) -> usize {
    match binding {
        Binding::Seq { items, is_list, .. } => {
            usize::from(*is_list && Rc::ptr_eq(items, list))
                + items
                    .iter()
                    .map(|item| refers_to_list(item, list))
                    .sum::<usize>()
        }
        _ => 0,
    }
}
