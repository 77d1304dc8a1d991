//! Name resolution: the script's own bindings, then Python's builtins (which win
//! over library functions of the same name: bare `max` is Python's), then the
//! library (reachable bare, as `mt.`/`np.` are), plus `import` statements and the
//! "did you mean" suggestions for unknown names and attributes.

use super::library::{self, Home};
use super::value::{LibraryModule, Namespace, PyType, Value};
use marsc_runtime::DType;

/// Python builtins and library constants reachable without a prefix.
pub(crate) fn builtin_value(name: &str) -> Option<Value> {
    if let Some(value) = python_builtin(name) {
        return Some(value);
    }
    if let Some(id) = library::find(name, Home::Builtin) {
        return Some(Value::Function(id));
    }
    library_member(name, LibraryModule::MarsTensor)
}

fn python_builtin(name: &str) -> Option<Value> {
    Some(match name {
        "int" => Value::PyType(PyType::Int),
        "float" => Value::PyType(PyType::Float),
        "bool" => Value::PyType(PyType::Bool),
        "complex" => Value::PyType(PyType::Complex),
        // The library is reachable as `mt.` and `np.` even without an import.
        "mt" => Value::Namespace(Namespace::Library(LibraryModule::MarsTensor)),
        "np" => Value::Namespace(Namespace::Library(LibraryModule::Numpy)),
        _ => return None,
    })
}

/// `mt.NAME` / `np.NAME`: a function, a scalar type, a constant or `random`.
pub(crate) fn library_member(name: &str, module: LibraryModule) -> Option<Value> {
    if let Some(id) = library::find(name, Home::Library) {
        return Some(Value::Function(id));
    }
    if let Some(dtype) = scalar_type(name) {
        return Some(Value::ScalarType(dtype));
    }
    Some(match name {
        "random" => Value::Namespace(Namespace::Random(module)),
        "linalg" => Value::Namespace(Namespace::Linalg(module)),
        "newaxis" => Value::None,
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "inf" => Value::Float(f64::INFINITY),
        "nan" => Value::Float(f64::NAN),
        _ => return None,
    })
}

/// NumPy's scalar type names for marsc's dtypes.
fn scalar_type(name: &str) -> Option<DType> {
    Some(match name {
        "bool" | "bool_" => DType::Bool,
        "int8" | "byte" => DType::Int8,
        "int16" | "short" => DType::Int16,
        "int32" | "intc" => DType::Int32,
        "int64" | "int_" | "intp" | "long" | "longlong" => DType::Int64,
        "uint8" | "ubyte" => DType::UInt8,
        "uint16" | "ushort" => DType::UInt16,
        "uint32" | "uintc" => DType::UInt32,
        "uint64" | "uint" | "uintp" | "ulong" | "ulonglong" => DType::UInt64,
        "float16" | "half" => DType::Float16,
        "float32" | "single" => DType::Float32,
        "float64" | "double" => DType::Float64,
        "complex64" | "csingle" => DType::Complex64,
        "complex128" | "cdouble" => DType::Complex128,
        _ => return None,
    })
}

/// Every name a library namespace has, for suggestions.
pub(crate) fn library_member_names() -> impl Iterator<Item = &'static str> {
    library::names(Home::Library).chain([
        "random",
        "linalg",
        "newaxis",
        "pi",
        "e",
        "inf",
        "nan",
        "bool",
        "bool_",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "half",
        "float32",
        "float64",
        "double",
        "single",
        "complex64",
        "complex128",
        "csingle",
        "cdouble",
    ])
}

/// Every name reachable bare besides the script's own bindings.
pub(crate) fn builtin_names() -> impl Iterator<Item = &'static str> {
    library_member_names()
        .chain(library::names(Home::Builtin))
        .chain(["int", "float", "bool", "mt", "np"])
}

/// What `import a.b.c` (without `as`) and `import a.b.c as x` bind, by module path.
pub(crate) fn module_value(path: &[&str]) -> Option<Namespace> {
    Some(match path {
        ["mars"] => Namespace::Mars,
        ["mars", "tensor"] => Namespace::Library(LibraryModule::MarsTensor),
        ["numpy"] => Namespace::Library(LibraryModule::Numpy),
        ["mars", "tensor", "random"] => Namespace::Random(LibraryModule::MarsTensor),
        ["numpy", "random"] => Namespace::Random(LibraryModule::Numpy),
        ["mars", "tensor", "linalg"] => Namespace::Linalg(LibraryModule::MarsTensor),
        ["numpy", "linalg"] => Namespace::Linalg(LibraryModule::Numpy),
        _ => return None,
    })
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a
/// plausible typo (at most a third of the name's length, as rustc does).
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count().max(3)) / 3;
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = edit_distance(name, candidate);
        let better = match best {
            None => true,
            Some((d, c)) => distance < d || (distance == d && candidate < c),
        };
        if distance <= limit && better {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance, with a transposition of neighbours counted as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let names = ["ones", "zeros", "reshape", "sum"];
        assert_eq!(closest("onse", names.iter().copied()), Some("ones"));
        assert_eq!(closest("zero", names.iter().copied()), Some("zeros"));
        assert_eq!(closest("reshpe", names.iter().copied()), Some("reshape"));
        assert_eq!(closest("banana", names.iter().copied()), None);
        assert_eq!(closest("sum", names.iter().copied()), None);
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    /// Bare names of Python's builtins are Python's, never the library's
    /// (`max(n, 0)` is not `mt.max(n, axis=0)`).
    #[test]
    fn python_builtins_are_not_the_library() {
        for name in [
            "abs", "all", "any", "max", "min", "sum", "round", "pow", "len", "divmod", "print",
        ] {
            let Some(Value::Function(id)) = builtin_value(name) else {
                panic!("`{name}` is not a function");
            };
            assert_eq!(id.signature().home, Home::Builtin, "{name}");
        }
        assert!(matches!(builtin_value("int"), Some(Value::PyType(_))));
    }

    #[test]
    fn modules() {
        assert_eq!(
            module_value(&["mars", "tensor"]),
            Some(Namespace::Library(LibraryModule::MarsTensor))
        );
        assert_eq!(module_value(&["pandas"]), None);
    }
}
