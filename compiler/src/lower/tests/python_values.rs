//! Python values at compile time: constant folding with Python's semantics and
//! `print` formatting as Python's `str()`. Expected texts were produced by running
//! each expression under Python 3 with NumPy (`np.` is `numpy`).

use super::support::lower_script;
use crate::tileable::{Output, PrintItem};

const PRELUDE: &str = "import numpy as np\nn = 7\nx = np.ones((4, 6), dtype='float32')\n";

/// (expression, Python's `str()` of its value).
const CASES: &[(&str, &str)] = &[
    ("n // 2", "3"),
    ("2**10", "1024"),
    ("-n", "-7"),
    ("7 % -2", "-1"),
    ("-7 // 2", "-4"),
    ("7.5 // -2", "-4.0"),
    ("-7.5 % 2", "0.5"),
    ("1 / 3", "0.3333333333333333"),
    ("0.1 + 0.2", "0.30000000000000004"),
    ("1e-5", "1e-05"),
    ("1e16", "1e+16"),
    ("123456789.0 * 1e10", "1.23456789e+18"),
    ("2**-1", "0.5"),
    ("2.0 ** 0.5", "1.4142135623730951"),
    ("True + 1", "2"),
    ("True & False", "False"),
    ("6 ^ 3", "5"),
    ("~5", "-6"),
    ("-True", "-1"),
    ("not 0", "True"),
    ("3 and 0", "0"),
    ("0 or 'x'", "x"),
    ("None or 4", "4"),
    ("1 and 2 and 3", "3"),
    ("(1,)", "(1,)"),
    ("(1, 2) + (3,)", "(1, 2, 3)"),
    ("'ab' * 2", "abab"),
    ("[1, 2.5, None]", "[1, 2.5, None]"),
    ("1 < 2", "True"),
    ("1 == 1.0", "True"),
    ("(1, 2) < (1, 3)", "True"),
    ("'a' != 'b'", "True"),
    ("abs(-3)", "3"),
    ("abs(-2.5)", "2.5"),
    ("int(3.9)", "3"),
    ("int(-3.9)", "-3"),
    ("int('42')", "42"),
    ("float(2)", "2.0"),
    ("float('1.5')", "1.5"),
    ("bool(0)", "False"),
    ("bool('')", "False"),
    ("len((1, 2, 3))", "3"),
    ("len(x)", "4"),
    ("x.shape", "(4, 6)"),
    ("x.ndim", "2"),
    ("x.size", "24"),
    ("x.dtype", "float32"),
    ("x.T.shape", "(6, 4)"),
    ("x.shape[0] * 2", "8"),
    ("x.shape[-1]", "6"),
    ("x.shape[1:]", "(6,)"),
    ("x.shape[::-1]", "(6, 4)"),
    ("x.shape + (1,)", "(4, 6, 1)"),
    ("x.itemsize", "4"),
    ("x.nbytes", "96"),
    ("x.dtype == 'float32'", "True"),
    ("x.dtype == np.float32", "True"),
    ("x.dtype.name", "float32"),
    ("np.float32", "<class 'numpy.float32'>"),
    ("float", "<class 'float'>"),
    ("np.pi", "3.141592653589793"),
    ("np.inf", "inf"),
    ("-np.inf", "-inf"),
    ("np.newaxis", "None"),
    ("x.shape == (4, 6)", "True"),
    ("'it\\'s'", "it's"),
    ("(x.dtype, 'a')", "(dtype('float32'), 'a')"),
    ("((1, 2), (3,))", "((1, 2), (3,))"),
    ("1e300 * 1e10", "inf"),
    ("5 % 3.0", "2.0"),
    ("-0.0", "-0.0"),
];

/// The texts a script's first print shows.
fn printed(source: &str) -> Vec<String> {
    let graph = lower_script(source).unwrap_or_else(|e| panic!("{source}: {e:?}"));
    match graph.outputs.first() {
        Some(Output::Print { items, .. }) => items
            .iter()
            .map(|item| match item {
                PrintItem::Text(text) => text.clone(),
                PrintItem::Tensor(id) => format!("<tensor {id}>"),
            })
            .collect(),
        other => panic!("no print: {other:?}"),
    }
}

#[test]
fn python_values_print_as_python() {
    let mut failures = Vec::new();
    for (expression, expected) in CASES {
        let text = printed(&format!("{PRELUDE}print({expression})\n"));
        if text != [expected.to_string()] {
            failures.push(format!(
                "{expression}: got {text:?}, Python prints {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn nsplits_print_as_nested_tuples() {
    let text = printed("x = mt.ones((4, 3), chunks=(2, 3))\nprint(x.nsplits)\n");
    assert_eq!(text, ["((2, 2), (3,))"]);
}

#[test]
fn print_separator_and_end() {
    let graph = lower_script("print(1, 'a', sep='-', end='')\nprint()\n").unwrap();
    match &graph.outputs[..] {
        [Output::Print {
            items, sep, end, ..
        }, Output::Print {
            items: none,
            sep: space,
            end: newline,
            ..
        }] => {
            assert_eq!(items.len(), 2);
            assert_eq!((sep.as_str(), end.as_str()), ("-", ""));
            assert!(none.is_empty());
            assert_eq!((space.as_str(), newline.as_str()), (" ", "\n"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn short_circuit_skips_the_right_side() {
    // Python never evaluates the right side here, so its error is not raised.
    assert_eq!(printed("print(0 and undefined)\n"), ["0"]);
    assert_eq!(printed("print(1 or undefined)\n"), ["1"]);
}

#[test]
fn names_rebind_and_augmented_assignment() {
    let source = "n = 2\nn += 3\nn *= 2\nm = n\nn = 'text'\nn += '!'\nprint(m, n)\n";
    assert_eq!(printed(source), ["10", "text!"]);
    let graph = lower_script("x = mt.ones(3)\ny = x\nx += 1\nprint(x, y)\n").unwrap();
    match &graph.outputs[0] {
        Output::Print { items, .. } => {
            assert_eq!(items[0], items[1], "`y` is `x`, updated in place")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn imports_bind_aliases() {
    assert_eq!(
        printed("import numpy\nimport mars.tensor\nprint(numpy.pi, mars.tensor.e)\n"),
        ["3.141592653589793", "2.718281828459045"]
    );
    assert_eq!(
        printed(
            "import mars.tensor as T\nimport numpy as N\nprint(T.ones(2).shape, N.ones(3).ndim)\n"
        ),
        ["(2,)", "1"]
    );
    assert_eq!(
        printed("import numpy.random as npr\nprint(npr.rand(2, 2).shape)\n"),
        ["(2, 2)"]
    );
    // The library is also reachable bare and as `mt.`/`np.` without an import.
    assert_eq!(
        printed("print(ones(3).size, mt.zeros(2).size, np.eye(2).size)\n"),
        ["3", "2", "4"]
    );
    // A script's own names shadow the library.
    assert_eq!(printed("ones = 5\nprint(ones)\n"), ["5"]);
}

#[test]
fn named_tuples_have_their_fields_by_name() {
    let source = "a = mt.ones((6, 3), chunks=2)\nr = mt.linalg.qr(a)\nq = r.Q\n\
                  u = mt.linalg.svd(a, full_matrices=False)\nU, S, Vh = u\n\
                  print(q.shape, r.R.shape, r._fields, len(u), S.shape, u.Vh.shape, \
                  mt.linalg.eigh(mt.eye(2)).eigenvectors.shape, \
                  mt.linalg.slogdet(a[:3]).logabsdet.ndim, (u[1:] + (1,))[2], \
                  mt.linalg.svd(a, compute_uv=False).shape)\n";
    assert_eq!(
        printed(source),
        [
            "(6, 3)",
            "(3, 3)",
            "('Q', 'R')",
            "3",
            "(3,)",
            "(3, 3)",
            "(2, 2)",
            "0",
            "1",
            "(3,)"
        ]
    );
    // `q` is the object `r[0]` is: an update through either shows in both.
    let graph =
        lower_script("r = mt.linalg.eigh(mt.eye(2))\nw = r.eigenvalues\nw += 1\nprint(r[0], w)\n")
            .unwrap();
    match &graph.outputs[0] {
        Output::Print { items, .. } => assert_eq!(items[0], items[1]),
        other => panic!("{other:?}"),
    }
}
