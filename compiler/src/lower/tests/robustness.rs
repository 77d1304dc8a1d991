//! No call can crash lowering: every function, random function, builtin and method
//! is called with many argument lists, right and wrong; each either lowers to a
//! graph that verifies or reports errors.

use crate::lower::library::{Home, LIBRARY};
use crate::lower::{lower, LowerOptions};
use crate::tileable::verify::verify;

const ARGUMENT_LISTS: &[&str] = &[
    "",
    "x",
    "v",
    "s",
    "x, x",
    "x, v",
    "v, v",
    "x, 1",
    "x, 0",
    "x, -1",
    "x, 2.5",
    "x, 'a'",
    "1, 2, 3",
    "x, axis=0",
    "x, axis=(0, 1)",
    "x, axis=None",
    "x, axis=5",
    "(2, 3)",
    "2, 3",
    "x, chunks=2",
    "(2, 3), chunks=(1, None)",
    "[x, x]",
    "[v, v], axis=0",
    "[x, v]",
    "[]",
    "x, dtype='int32'",
    "x, dtype=bool",
    "None",
    "x, None",
    "x, keepdims=True",
    "'f.npy'",
    "'f.npy', x",
    "x, x, x",
    "True",
    "[[1, 2], [3, 4]]",
    "[[1, 2], [3]]",
    "x > 1, x, 0",
    "0, 1, 5",
    "5, size=(2, 2)",
    "x, (3, 2)",
    "x, (3, -1)",
    "x, -1, 0",
    "v, 0",
    "x, shape=(3, 2)",
    "(0, 3)",
    "z",
    "z, 0",
    "2**62, 2**62",
    "x, 2**62",
    "x, (2**40, 2**40)",
    "-1",
    "x, ddof=1",
    "s, s",
    "v, 1, 2",
];

/// Lowers whatever the parser recovered; a graph that lowers must verify.
fn assert_no_panic(source: &str) {
    let result = std::panic::catch_unwind(|| {
        let (module, _) = marsc_grammar::parse(source);
        if let Ok(graph) = lower(&module, &LowerOptions::default()) {
            verify(&graph).map_err(|problem| format!("{problem}\n{}", graph.with_source(source)))
        } else {
            Ok(())
        }
    });
    match result {
        Ok(Ok(())) => {}
        Ok(Err(problem)) => panic!("invalid graph for:\n{source}\n{problem}"),
        Err(_) => panic!("lowering panicked on:\n{source}"),
    }
}

#[test]
fn every_function_with_every_argument_list() {
    let prelude = "import mars\nx = mt.ones((2, 3), chunks=1)\nv = mt.arange(3)\ns = mt.tensor(2.5)\nz = mt.ones((0, 3))\n";
    for signature in LIBRARY {
        let callees: Vec<String> = match signature.home {
            Home::Library => vec![format!("mt.{}", signature.name)],
            Home::Random => vec![format!("mt.random.{}", signature.name)],
            Home::Generator => vec![format!("mt.random.default_rng(0).{}", signature.name)],
            Home::Linalg => vec![format!("mt.linalg.{}", signature.name)],
            Home::Mars => vec![format!("mars.{}", signature.name)],
            Home::Builtin => vec![signature.name.to_string()],
            Home::MethodOnly => vec![],
        }
        .into_iter()
        .chain(
            (signature.method || signature.home == Home::MethodOnly)
                .then(|| ["x", "v", "s", "z"].map(|r| format!("{r}.{}", signature.name)))
                .into_iter()
                .flatten(),
        )
        .collect();
        for callee in &callees {
            for arguments in ARGUMENT_LISTS {
                assert_no_panic(&format!("{prelude}r = {callee}({arguments})\nprint(r)\n"));
            }
        }
    }
}

#[test]
fn operators_and_indices_on_every_kind_of_value() {
    let values = [
        "x",
        "v",
        "s",
        "z",
        "b",
        "1",
        "2.5",
        "True",
        "None",
        "'a'",
        "(1, 2)",
        "[1, 2]",
        "mt",
        "mt.ones",
        "x.sum",
        "float",
        "mt.float32",
        "x.dtype",
        "...",
    ];
    let operators = [
        "+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<", "<=", "==", "!=", ">", ">=",
        "and", "or",
    ];
    let prelude = "x = mt.ones((2, 3), chunks=1)\nv = mt.arange(3)\ns = mt.tensor(2.5)\n\
                   z = mt.ones((0, 3))\nb = x > 0\n";
    for a in values {
        for unary in ["-", "+", "~", "not "] {
            assert_no_panic(&format!("{prelude}print({unary}{a})\n"));
        }
        for item in [
            "0", "-1", "5", "1:", "::-1", "::0", "None", "...", "0, 0", "x", "'a'", "1.5",
        ] {
            assert_no_panic(&format!("{prelude}print({a}[{item}])\n"));
        }
        for attribute in [
            "shape", "T", "nsplits", "dtype", "name", "foo", "sum", "random",
        ] {
            assert_no_panic(&format!("{prelude}print(({a}).{attribute})\n"));
        }
        assert_no_panic(&format!("{prelude}print({a}())\n"));
        for b in values {
            for op in operators {
                assert_no_panic(&format!("{prelude}print({a} {op} {b})\n"));
            }
        }
    }
}
