//! Attribute access: a tensor's compile-time facts (`.shape`, `.ndim`, `.size`,
//! `.dtype`, `.nsplits`, `.itemsize`, `.nbytes`), `.T`, and its methods as bound
//! values; the members of `mt`/`np`/`mt.random`/`mars`; a dtype's `.name` and
//! `.itemsize`; a named tuple's fields (`mt.linalg.qr(a).Q`). Unknown attributes get
//! the closest known name as help.

use super::library::{self, Home};
use super::names::{closest, library_member, library_member_names};
use super::not_yet::{
    not_yet_in_library, not_yet_in_linalg, not_yet_in_mars, not_yet_in_random, not_yet_str_member,
    not_yet_tensor_member,
};
use super::value::{LibraryModule, Namespace, TupleClass, Value};
use super::Lowerer;
use crate::tileable::TileableId;
use marsc_grammar::ast::Ident;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::DType;

pub(super) const TENSOR_ATTRIBUTES: &[&str] = &[
    "shape", "ndim", "size", "dtype", "T", "nsplits", "itemsize", "nbytes", "real", "imag",
];

impl Lowerer<'_> {
    pub(super) fn attribute(&mut self, object: Value, object_span: Span, attr: &Ident) -> Value {
        let name = attr.name.as_str();
        let found = match &object {
            Value::Poison => return Value::Poison,
            Value::Tensor(id) => return self.tensor_attribute(*id, object_span, attr),
            Value::Namespace(namespace) => namespace_member(*namespace, name),
            Value::DType(dtype) | Value::ScalarType(dtype) => dtype_attribute(*dtype, name),
            Value::RandomState(stream) => random_state_method(stream, name),
            Value::Tuple(items, Some(class)) => named_tuple_attribute(items, class, name),
            Value::Complex(re, _) if name == "real" => Some(Value::Float(*re)),
            Value::Complex(_, im) if name == "imag" => Some(Value::Float(*im)),
            Value::NpzFile(npz) if name == "files" => Some(Value::List(
                npz.archive
                    .entries
                    .iter()
                    .map(|e| Value::str(e.key()))
                    .collect(),
            )),
            _ => None,
        };
        if let Some(value) = found {
            return value;
        }
        if let Value::Namespace(namespace) = &object {
            let prefix = format!("{}.", namespace.module_name());
            let not_yet = match namespace {
                Namespace::Library(_) => not_yet_in_library(name, &prefix),
                Namespace::Random(_) => not_yet_in_random(name, &prefix),
                Namespace::Mars => not_yet_in_mars(name),
                Namespace::Linalg(_) => not_yet_in_linalg(name, &prefix),
            };
            if let Some(message) = not_yet {
                return self.report(Diagnostic::error(message, attr.span));
            }
        }
        if let Value::Str(_) = &object {
            if let Some(message) = not_yet_str_member(name) {
                return self.report(Diagnostic::error(message, attr.span));
            }
        }
        if let Value::RandomState(stream) = &object {
            if stream.generator && LEGACY_ONLY.contains(&name) {
                // NumPy's Generator has none of the legacy names (`rand`, `seed`, ...).
                return self.report(Diagnostic::error(
                    format!(
                        "AttributeError: 'numpy.random._generator.Generator' object has no \
                         attribute '{name}'"
                    ),
                    attr.span,
                ));
            }
            let prefix = format!("{}.", stream.class_name());
            if let Some(message) = not_yet_in_random(name, &prefix) {
                return self.report(Diagnostic::error(message, attr.span));
            }
        }
        let (what, candidates): (String, Vec<&str>) = match &object {
            Value::Namespace(namespace) => (
                format!("module `{}`", namespace.module_name()),
                namespace_member_names(*namespace),
            ),
            Value::DType(_) | Value::ScalarType(_) => ("a dtype".into(), vec!["name", "itemsize"]),
            Value::Tuple(_, Some(class)) => (
                format!("a named tuple `{}`", class.name),
                class.fields.iter().copied().chain(["_fields"]).collect(),
            ),
            other => (format!("{} value", other.a_type_name()), vec![]),
        };
        let mut diagnostic =
            Diagnostic::error(format!("{what} has no attribute `{name}`"), attr.span)
                .with_secondary(object_span, "this is ".to_string() + &what);
        if let Some(suggestion) = closest(name, candidates.into_iter()) {
            diagnostic = diagnostic.with_help(format!("did you mean `{suggestion}`?"));
        }
        self.report(diagnostic)
    }

    fn tensor_attribute(&mut self, id: TileableId, object_span: Span, attr: &Ident) -> Value {
        let node = self.node(id);
        let size: usize = node.shape.iter().product();
        match attr.name.as_str() {
            "shape" => Value::int_tuple(&node.shape),
            "ndim" => Value::Int(node.shape.len() as i64),
            "size" => Value::Int(size as i64),
            "dtype" => Value::DType(node.dtype),
            "itemsize" => Value::Int(node.dtype.itemsize() as i64),
            "nbytes" => Value::Int((size * node.dtype.itemsize()) as i64),
            "nsplits" => Value::tuple(node.nsplits.iter().map(|s| Value::int_tuple(s)).collect()),
            "real" | "imag" => {
                let op = if attr.name == "real" {
                    marsc_runtime::ops::UnaryOp::Real
                } else {
                    marsc_runtime::ops::UnaryOp::Imag
                };
                let result = self.unary(op, id, attr.span, object_span.to(attr.span));
                self.value_or_report(result)
            }
            "T" => {
                let result = self
                    .transpose_tensor(id, None, attr.span, object_span.to(attr.span))
                    .map(Value::Tensor);
                self.value_or_report(result)
            }
            name => match library::find_method(name) {
                Some(method) => Value::Method(id, method),
                None => {
                    if let Some(message) = not_yet_tensor_member(name) {
                        return self.report(Diagnostic::error(message, attr.span));
                    }
                    let candidates = TENSOR_ATTRIBUTES
                        .iter()
                        .copied()
                        .chain(library::method_names());
                    let mut diagnostic = Diagnostic::error(
                        format!("a tensor has no attribute or method `{name}`"),
                        attr.span,
                    );
                    if let Some(suggestion) = closest(name, candidates) {
                        diagnostic = diagnostic.with_help(format!("did you mean `{suggestion}`?"));
                    }
                    self.report(diagnostic)
                }
            },
        }
    }
}

fn namespace_member(namespace: Namespace, name: &str) -> Option<Value> {
    match namespace {
        Namespace::Library(module) => library_member(name, module),
        Namespace::Random(_) => library::find(name, Home::Random).map(Value::Function),
        Namespace::Linalg(_) => library::find(name, Home::Linalg).map(Value::Function),
        Namespace::Mars if name == "tensor" => Some(Value::Namespace(Namespace::Library(
            LibraryModule::MarsTensor,
        ))),
        Namespace::Mars => library::find(name, Home::Mars).map(Value::Function),
    }
}

fn namespace_member_names(namespace: Namespace) -> Vec<&'static str> {
    match namespace {
        Namespace::Library(_) => library_member_names().collect(),
        Namespace::Random(_) => library::names(Home::Random).collect(),
        Namespace::Linalg(_) => library::names(Home::Linalg).collect(),
        Namespace::Mars => std::iter::once("tensor")
            .chain(library::names(Home::Mars))
            .collect(),
    }
}

fn dtype_attribute(dtype: DType, name: &str) -> Option<Value> {
    match name {
        "name" => Some(Value::str(dtype.name())),
        "itemsize" => Some(Value::Int(dtype.itemsize() as i64)),
        _ => None,
    }
}

/// `r.NAME` of a named tuple (`mt.linalg.qr(a).Q`): the field's item, or `_fields`,
/// the tuple of the field names.
fn named_tuple_attribute(items: &[Value], class: &TupleClass, name: &str) -> Option<Value> {
    match class.field(name) {
        Some(index) => items.get(index).cloned(),
        None if name == "_fields" => Some(Value::tuple(
            class.fields.iter().map(|field| Value::str(field)).collect(),
        )),
        None => None,
    }
}

/// `rs.NAME` of a `RandomState`: the `random` function of that name (its draws come
/// from the object's seed and sequence), or `seed`; of a Generator, the methods NumPy's
/// `Generator` has.
fn random_state_method(
    stream: &std::rc::Rc<super::value::RandomStream>,
    name: &str,
) -> Option<Value> {
    use super::library::{find, Builtin, Home, RandomKind};
    if stream.generator {
        let id = match name {
            "integers" => find(name, Home::Generator)?,
            _ if GENERATOR_METHODS.contains(&name) => find(name, Home::Random)?,
            _ => return None,
        };
        return Some(Value::StreamMethod(stream.clone(), id));
    }
    let id = find(name, Home::Random)?;
    match id.signature().builtin {
        Builtin::Random(RandomKind::RandomState | RandomKind::DefaultRng) => None,
        Builtin::Random(_) | Builtin::Seed => Some(Value::StreamMethod(stream.clone(), id)),
        _ => None,
    }
}

/// `RandomState`'s names that NumPy's `Generator` does not have.
const LEGACY_ONLY: &[&str] = &[
    "rand",
    "randn",
    "randint",
    "random_sample",
    "random_integers",
    "ranf",
    "sample",
    "seed",
    "tomaxint",
    "get_state",
    "set_state",
];

/// The `random` functions that NumPy's `Generator` has as methods under the same
/// name and parameters (beside `integers`, its `randint`).
const GENERATOR_METHODS: &[&str] = &[
    "random",
    "standard_normal",
    "normal",
    "uniform",
    "exponential",
    "choice",
    "permutation",
    "shuffle",
    "gamma",
    "beta",
    "poisson",
    "binomial",
];
