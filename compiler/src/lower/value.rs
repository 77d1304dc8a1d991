//! The values a script computes with at compile time: tensors (graph nodes), Python
//! scalars, strings, tuples and lists, dtypes, namespaces, functions, bound methods,
//! and `Poison`, the value of an expression that already reported an error (any use
//! of it quietly yields `Poison` again, so one mistake gives one diagnostic).

use super::control::UserFunction;
use super::library::FuncId;
use crate::tileable::TileableId;
use marsc_runtime::DType;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Tensor(TileableId),
    Int(i64),
    Float(f64),
    /// A Python `complex`: its real and imaginary parts.
    Complex(f64, f64),
    Bool(bool),
    Str(Rc<str>),
    None,
    Ellipsis,
    /// A tuple; one NumPy returns as a named tuple (`QRResult(Q=..., R=...)`) carries
    /// its class, which gives it its repr and its fields by name. In every other
    /// respect (indexing, unpacking, `len`, `==`, `+`) it is a tuple, as in Python.
    Tuple(Rc<[Value]>, Option<&'static TupleClass>),
    List(Rc<[Value]>),
    /// A dtype object (`x.dtype`), printed as `float64`.
    DType(DType),
    /// A NumPy scalar type (`mt.float32`), printed as `<class 'numpy.float32'>`; usable
    /// wherever a dtype is, and callable to make a 0-d tensor.
    ScalarType(DType),
    /// Python's `int`, `float` and `bool`: dtypes when passed as one, conversions
    /// of Python scalars when called.
    PyType(PyType),
    Namespace(Namespace),
    /// A library or builtin function.
    Function(FuncId),
    /// `x.sum` before it is called.
    Method(TileableId, FuncId),
    /// `range(start, stop, step)`.
    Range(PyRange),
    /// A function the script defined with `def`.
    UserFunction(Rc<UserFunction>),
    /// `random.RandomState(seed)`: a generator object whose methods draw from its
    /// own seed and its own sequence of streams.
    RandomState(Rc<RandomStream>),
    /// `rs.rand` (a `random` function bound to a `RandomState`) before it is called.
    StreamMethod(Rc<RandomStream>, FuncId),
    /// `load("f.npz")`: an archive whose members `d["name"]` loads.
    NpzFile(Rc<NpzValue>),
    /// The result of an expression that has already been reported as an error.
    Poison,
}

/// The class of a named tuple NumPy 2 returns: its name and its fields' names, one
/// per item (`numpy.linalg`'s `QRResult`: `Q`, `R`).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TupleClass {
    pub name: &'static str,
    pub fields: &'static [&'static str],
}

impl TupleClass {
    /// The position of the field `name`, if the class has it.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|field| *field == name)
    }
}

/// `numpy.linalg.qr`'s result (modes `reduced` and `complete`).
pub(crate) static QR_RESULT: TupleClass = TupleClass {
    name: "QRResult",
    fields: &["Q", "R"],
};

/// `numpy.linalg.svd`'s result with `compute_uv=True`.
pub(crate) static SVD_RESULT: TupleClass = TupleClass {
    name: "SVDResult",
    fields: &["U", "S", "Vh"],
};

/// `numpy.linalg.eigh`'s result.
pub(crate) static EIGH_RESULT: TupleClass = TupleClass {
    name: "EighResult",
    fields: &["eigenvalues", "eigenvectors"],
};

/// `numpy.linalg.slogdet`'s result.
pub(crate) static SLOGDET_RESULT: TupleClass = TupleClass {
    name: "SlogdetResult",
    fields: &["sign", "logabsdet"],
};

/// NumPy 2's `unique_all`'s result.
pub(crate) static UNIQUE_ALL_RESULT: TupleClass = TupleClass {
    name: "UniqueAllResult",
    fields: &["values", "indices", "inverse_indices", "counts"],
};

/// NumPy 2's `unique_counts`'s result.
pub(crate) static UNIQUE_COUNTS_RESULT: TupleClass = TupleClass {
    name: "UniqueCountsResult",
    fields: &["values", "counts"],
};

/// NumPy 2's `unique_inverse`'s result.
pub(crate) static UNIQUE_INVERSE_RESULT: TupleClass = TupleClass {
    name: "UniqueInverseResult",
    fields: &["values", "inverse_indices"],
};

/// An opened `.npz` archive: its directory, and the path as the script wrote it.
#[derive(Debug, PartialEq)]
pub(crate) struct NpzValue {
    pub archive: marsc_runtime::storage::npz::NpzArchive,
    pub written: String,
}

/// A `RandomState`'s seed and how many tensors it has drawn (each draw is a stream
/// of its own, so its values depend only on the seed and the draw's number on it, as
/// NumPy's do).
#[derive(Debug)]
pub(crate) struct RandomStream {
    pub seed: std::cell::Cell<u64>,
    pub draws: std::cell::Cell<u64>,
    /// A `default_rng` Generator (NumPy's new API: `integers`, no `rand`/`seed`),
    /// not a legacy `RandomState`.
    pub generator: bool,
}

impl RandomStream {
    /// NumPy's class name of the object.
    pub fn class_name(&self) -> &'static str {
        if self.generator {
            "Generator"
        } else {
            "RandomState"
        }
    }
}

impl PartialEq for RandomStream {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// Python's `range`: its items are computed, never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PyRange {
    pub start: i64,
    pub stop: i64,
    /// Never 0.
    pub step: i64,
}

impl PyRange {
    /// How many items it has.
    pub fn len(&self) -> u64 {
        let (start, stop, step) = (
            i128::from(self.start),
            i128::from(self.stop),
            i128::from(self.step),
        );
        let count = if step > 0 {
            (stop - start + step - 1) / step
        } else {
            (start - stop - step - 1) / -step
        };
        count.max(0) as u64
    }

    /// Whether `v` is one of its items.
    pub fn contains(&self, v: i64) -> bool {
        let offset = i128::from(v) - i128::from(self.start);
        let step = i128::from(self.step);
        offset % step == 0 && (0..i128::from(self.len())).contains(&(offset / step))
    }

    /// Item `i` (below [`len`](Self::len)).
    pub fn item(&self, i: u64) -> i64 {
        (i128::from(self.start) + i128::from(self.step) * i128::from(i)) as i64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PyType {
    Int,
    Float,
    Bool,
    Complex,
}

impl PyType {
    pub fn name(self) -> &'static str {
        match self {
            PyType::Int => "int",
            PyType::Float => "float",
            PyType::Bool => "bool",
            PyType::Complex => "complex",
        }
    }

    /// The dtype NumPy reads this type as (`dtype=float` is float64).
    pub fn dtype(self) -> DType {
        match self {
            PyType::Int => DType::Int64,
            PyType::Float => DType::Float64,
            PyType::Bool => DType::Bool,
            PyType::Complex => DType::Complex128,
        }
    }
}

/// A module-like value whose attributes are library functions and constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Namespace {
    /// `mars.tensor` or `numpy`; the name is how the script spelled the module.
    Library(LibraryModule),
    /// `mt.random` / `np.random`.
    Random(LibraryModule),
    /// The top-level `mars` package, whose only member is `tensor`.
    Mars,
    /// `mt.linalg` / `np.linalg`.
    Linalg(LibraryModule),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LibraryModule {
    MarsTensor,
    Numpy,
}

impl Namespace {
    /// The module's Python name (`mars.tensor.random`).
    pub fn module_name(self) -> &'static str {
        match self {
            Namespace::Library(LibraryModule::MarsTensor) => "mars.tensor",
            Namespace::Library(LibraryModule::Numpy) => "numpy",
            Namespace::Random(LibraryModule::MarsTensor) => "mars.tensor.random",
            Namespace::Random(LibraryModule::Numpy) => "numpy.random",
            Namespace::Mars => "mars",
            Namespace::Linalg(LibraryModule::MarsTensor) => "mars.tensor.linalg",
            Namespace::Linalg(LibraryModule::Numpy) => "numpy.linalg",
        }
    }
}

impl Value {
    pub fn str(text: &str) -> Value {
        Value::Str(Rc::from(text))
    }

    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items), None)
    }

    /// A named tuple of `class` (one item per field).
    pub fn named_tuple(class: &'static TupleClass, items: Vec<Value>) -> Value {
        debug_assert_eq!(items.len(), class.fields.len());
        Value::Tuple(Rc::from(items), Some(class))
    }

    pub fn int_tuple(items: &[usize]) -> Value {
        Value::tuple(items.iter().map(|&i| Value::Int(i as i64)).collect())
    }

    /// A tuple or list built from items; poisoned if any item is.
    pub fn sequence(items: Vec<Value>, is_list: bool) -> Value {
        if items.iter().any(Value::is_poison) {
            Value::Poison
        } else if is_list {
            Value::List(Rc::from(items))
        } else {
            Value::tuple(items)
        }
    }

    /// A tuple named as `class` (`None`: plain); any other value unchanged.
    pub fn named(self, class: Option<&'static TupleClass>) -> Value {
        match self {
            Value::Tuple(items, _) => Value::Tuple(items, class),
            other => other,
        }
    }

    /// The class of a named tuple (`None` for a plain tuple and any other value).
    pub fn tuple_class(&self) -> Option<&'static TupleClass> {
        match self {
            Value::Tuple(_, class) => *class,
            _ => None,
        }
    }

    pub fn is_poison(&self) -> bool {
        matches!(self, Value::Poison)
    }

    /// Whether the value is, or a tuple or list in it holds, poison.
    pub fn contains_poison(&self) -> bool {
        match self {
            Value::Poison => true,
            Value::Tuple(items, _) | Value::List(items) => items.iter().any(Value::contains_poison),
            _ => false,
        }
    }

    /// The Python type name used in messages (`int`, `str`, `tensor`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Tensor(_) => "tensor",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(..) => "complex",
            Value::Bool(_) => "bool",
            Value::Str(_) => "str",
            Value::None => "None",
            Value::Ellipsis => "ellipsis",
            Value::Tuple(..) => "tuple",
            Value::List(_) => "list",
            Value::DType(_) => "dtype",
            Value::ScalarType(_) | Value::PyType(_) => "type",
            Value::Namespace(_) => "module",
            Value::Function(_) => "function",
            Value::Method(..) => "method",
            Value::Range(_) => "range",
            Value::UserFunction(_) => "function",
            Value::RandomState(stream) => stream.class_name(),
            Value::NpzFile(_) => "NpzFile",
            Value::StreamMethod(..) => "method",
            Value::Poison => "error",
        }
    }

    /// The type name with its article, for messages: `an int`, `a tensor`, `None`.
    pub fn a_type_name(&self) -> &'static str {
        match self {
            Value::Tensor(_) => "a tensor",
            Value::Int(_) => "an int",
            Value::Float(_) => "a float",
            Value::Complex(..) => "a complex",
            Value::Bool(_) => "a bool",
            Value::Str(_) => "a str",
            Value::None => "None",
            Value::Ellipsis => "an ellipsis",
            Value::Tuple(..) => "a tuple",
            Value::List(_) => "a list",
            Value::DType(_) => "a dtype",
            Value::ScalarType(_) | Value::PyType(_) => "a type",
            Value::Namespace(_) => "a module",
            Value::Function(_) => "a function",
            Value::Method(..) => "a method",
            Value::Range(_) => "a range",
            Value::UserFunction(_) => "a function",
            Value::RandomState(stream) if stream.generator => "a Generator",
            Value::RandomState(_) => "a RandomState",
            Value::NpzFile(_) => "an NpzFile",
            Value::StreamMethod(..) => "a method",
            Value::Poison => "an error",
        }
    }

    /// The items of a tuple or list.
    pub fn as_sequence(&self) -> Option<&[Value]> {
        match self {
            Value::Tuple(items, _) | Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// A Python scalar as a number, if it is one (`bool` counts, as in Python).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::Float(v) => Some(*v),
            Value::Bool(b) => Some(*b as u8 as f64),
            _ => None,
        }
    }

    /// The dtype this value names when given as a `dtype=` argument.
    pub fn as_dtype(&self) -> Option<DType> {
        match self {
            Value::DType(d) | Value::ScalarType(d) => Some(*d),
            Value::PyType(t) => Some(t.dtype()),
            Value::Str(name) => DType::from_name(name),
            _ => None,
        }
    }

    pub fn is_python_scalar(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Float(_) | Value::Bool(_))
    }
}
