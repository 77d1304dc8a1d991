//! Every class of static error in the language contract, each checked for its
//! message and for the source text its span points at; and reporting of every
//! error of a script, in source order. Messages in NumPy's wording come from NumPy.

use super::support::{diagnostic, error, errors};

fn check(source: &str, message: &str, spanned: &str) {
    let (actual_message, actual_text) = error(source);
    assert_eq!(actual_message, message, "message for {source:?}");
    assert_eq!(actual_text, spanned, "span for {source:?}");
}

#[test]
fn unknown_names_and_modules() {
    let d = diagnostic("x = 1\nprint(onse(3))\n");
    assert_eq!(d.message, "cannot find `onse` in this scope");
    assert_eq!(d.help.as_deref(), Some("did you mean `ones`?"));
    let d = diagnostic("total = 1\nprint(totl)\n");
    assert_eq!(d.help.as_deref(), Some("did you mean `total`?"));
    let d = diagnostic("print(qqqqqqq)\n");
    assert_eq!(d.help, None);
    check(
        "import pandas as pd\n",
        "no module named `pandas`",
        "pandas",
    );
    check(
        "import mars.tensr as mt\n",
        "no module named `mars.tensr`",
        "mars.tensr",
    );
    let d = diagnostic("import numpy as np\nnp.onez(3)\n");
    assert_eq!(d.message, "module `numpy` has no attribute `onez`");
    assert_eq!(d.help.as_deref(), Some("did you mean `ones`?"));
    check(
        "mt.random.rnd(3)\n",
        "module `mars.tensor.random` has no attribute `rnd`",
        "rnd",
    );
    let d = diagnostic("x = mt.ones(3)\nx.sun()\n");
    assert_eq!(d.message, "a tensor has no attribute or method `sun`");
    assert_eq!(d.help.as_deref(), Some("did you mean `sum`?"));
    check(
        "x = 3\nx.shape\n",
        "an int value has no attribute `shape`",
        "shape",
    );
}

#[test]
fn argument_binding() {
    check(
        "mt.ones(3, 'float32', 'C', 7)\n",
        "`ones()` takes from 1 to 3 positional arguments but 4 were given",
        "7",
    );
    check(
        "mt.full(3)\n",
        "`full()` missing required argument `fill_value`",
        "mt.full(3)",
    );
    let d = diagnostic("mt.ones(3, chunk=2)\n");
    assert_eq!(
        d.message,
        "`ones()` got an unexpected keyword argument `chunk`"
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `chunks`?"));
    check(
        "mt.ones(3, shape=4)\n",
        "`ones()` got multiple values for argument `shape`",
        "4",
    );
    check(
        "mt.ones(3, chunks=2, chunk_size=2)\n",
        "`ones()` got more than one chunk specification",
        "2",
    );
    let d = diagnostic("x = mt.ones(3)\ny = mt.sqrt(x, chunks=2)\n");
    assert_eq!(
        d.message,
        "`sqrt()` got an unexpected keyword argument `chunks`"
    );
    assert!(d.help.unwrap().contains("rechunk"));
    check(
        "mt.sum(mt.ones(3), out=mt.ones(1))\n",
        "not supported yet: the `out` argument of `sum()`",
        "mt.ones(1)",
    );
    check(
        "mt.sqrt(x=4)\n",
        "`sqrt()` takes `x` only as a positional argument",
        "x",
    );
    check(
        "x = mt.ones(3)\nx.sum(0, None, None, False, None, None, 1)\n",
        "`sum()` takes from 0 to 6 positional arguments but 7 were given",
        "1",
    );
}

#[test]
fn argument_types() {
    check(
        "mt.ones((2, 3)).sum(axis='a')\n",
        "`axis` must be an int or a tuple of ints, got str",
        "'a'",
    );
    check(
        "mt.ones(2.5)\n",
        "`shape` must be an int or a tuple of ints, got float",
        "2.5",
    );
    check(
        "mt.ones((2, -1))\n",
        "negative dimensions are not allowed",
        "(2, -1)",
    );
    check(
        "mt.ones(3, dtype='foo')\n",
        "data type 'foo' not understood",
        "'foo'",
    );
    check(
        "mt.ones(3, dtype=3)\n",
        "`dtype` must be a dtype or its name, got int",
        "3",
    );
    check(
        "mt.linspace(0, 1, 2.5)\n",
        "`num` must be an int, got float",
        "2.5",
    );
    check(
        "mt.linspace(0, 1, -1)\n",
        "Number of samples, -1, must be non-negative.",
        "-1",
    );
    check(
        "mt.save(3, mt.ones(2))\n",
        "`file` must be a string, got int",
        "3",
    );
    check(
        "print(1, sep=3)\n",
        "sep must be None or a string, not int",
        "3",
    );
    check(
        "mt.ones(3, chunks=1.5)\n",
        "`chunks` must be an int, \"auto\", or a tuple with one entry per axis, got float",
        "1.5",
    );
    check(
        "x = mt.ones(3)\nx + 'a'\n",
        "a tensor operation cannot take a str operand",
        "+",
    );
    check("x = 4\nx()\n", "an int value is not callable", "x");
}

#[test]
fn shapes() {
    let d = diagnostic("x = mt.ones((2, 3))\ny = mt.ones(4)\nz = x + y\n");
    assert_eq!(
        d.message,
        "operands could not be broadcast together with shapes (2,3) (4,)"
    );
    assert_eq!(d.span.range(), 41..42, "the operator");
    assert_eq!(d.secondary.len(), 2);
    check(
        "x = mt.ones((2, 3))\nx @ x\n",
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
         signature (n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)",
        "@",
    );
    check(
        "mt.dot(mt.ones((2, 3)), mt.ones(4))\n",
        "shapes (2, 3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)",
        "mt.dot(mt.ones((2, 3)), mt.ones(4))",
    );
    check(
        "mt.ones(3) @ 2\n",
        "matmul: Input operand 1 does not have enough dimensions (has 0, gufunc core \
         with signature (n?,k),(k,m?)->(n?,m?) requires 1)",
        "2",
    );
    check(
        "mt.dot(mt.ones((2, 2, 2)), mt.ones(2))\n",
        "not supported yet: `dot` of tensors with more than 2 dimensions",
        "mt.ones((2, 2, 2))",
    );
    check(
        "mt.matmul(mt.ones((2, 3, 4)), mt.ones((3, 4, 5)))\n",
        "operands could not be broadcast together with remapped shapes \
         [original->remapped]: (2,3,4)->(2,newaxis,newaxis) (3,4,5)->(3,newaxis,newaxis)  \
         and requested shape (3,5)",
        "mt.matmul(mt.ones((2, 3, 4)), mt.ones((3, 4, 5)))",
    );
    check(
        "mt.ones((2, 3, 4)) @ mt.ones((2, 5, 6))\n",
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
         signature (n?,k),(k,m?)->(n?,m?) (size 5 is different from 4)",
        "@",
    );
    check(
        "mt.ones(6).reshape(4, 4)\n",
        "cannot reshape array of size 6 into shape (4,4)",
        "4, 4",
    );
    check(
        "mt.concatenate([mt.ones((2, 3)), mt.ones((3, 2))])\n",
        "all the input array dimensions except for the concatenation axis must match \
         exactly, but along dimension 1, the array at index 0 has size 3 and the array \
         at index 1 has size 2",
        "[mt.ones((2, 3)), mt.ones((3, 2))]",
    );
    check(
        "mt.stack([mt.ones(2), mt.ones(3)])\n",
        "all input arrays must have the same shape",
        "[mt.ones(2), mt.ones(3)]",
    );
    check(
        "mt.broadcast_to(mt.ones(3), (2, 4))\n",
        "operands could not be broadcast together with remapped shapes \
         [original->remapped]: (3,)  and requested shape (2,4)",
        "(2, 4)",
    );
    check(
        "mt.squeeze(mt.ones((2, 3)), axis=0)\n",
        "cannot select an axis to squeeze out which has size not equal to one",
        "0",
    );
    check(
        "mt.ones((2, 3)).transpose(0, 0)\n",
        "repeated axis in transpose",
        "0, 0",
    );
    check(
        "mt.ones((0, 3)).max(axis=0)\n",
        "zero-size array to reduction operation maximum which has no identity",
        "mt.ones((0, 3)).max(axis=0)",
    );
}

#[test]
fn dtypes() {
    let d = diagnostic("b = mt.ones(3, dtype=bool)\nc = -b\n");
    assert_eq!(d.message, "`negative` is not supported for bool tensors");
    assert_eq!(d.help.as_deref(), Some("use `~` or `logical_not`"));
    assert_eq!(d.span.range(), 31..32);
    let d = diagnostic("b = mt.ones(3, dtype=bool)\nc = b - b\n");
    assert_eq!(d.message, "`subtract` is not supported for bool tensors");
    check(
        "x = mt.ones(3)\ny = x & 1\n",
        "`bitwise_and` is not supported for float64 tensors",
        "&",
    );
    check(
        "x = mt.ones(3)\ny = ~x\n",
        "`invert` is not supported for float64 tensors",
        "~",
    );
    check(
        "h = mt.ones((2, 2), dtype=mt.float16)\nmt.linalg.det(h)\n",
        "array type float16 is unsupported in linalg",
        "h",
    );
    check(
        "x = mt.ones(3, dtype='uint8') + 256\n",
        "Python integer 256 out of bounds for uint8",
        "256",
    );
    check(
        "x = mt.ones(3, dtype='int32') + 2**40\n",
        "Python integer 1099511627776 out of bounds for int32",
        "2**40",
    );
    check(
        "x = mt.arange(3) ** -1\n",
        "Integers to negative integer powers are not allowed.",
        "-1",
    );
    check(
        "mt.tensor([2**40], dtype='int32')\n",
        "Python integer 1099511627776 out of bounds for int32",
        "[2**40]",
    );
}

#[test]
fn axes_and_indices() {
    check(
        "mt.ones((2, 3)).sum(axis=2)\n",
        "axis 2 is out of bounds for array of dimension 2",
        "2",
    );
    check(
        "mt.ones((2, 3)).sum(axis=(0, 0))\n",
        "duplicate value in 'axis'",
        "(0, 0)",
    );
    check(
        "mt.ones(3).cumsum(axis=-2)\n",
        "axis -2 is out of bounds for array of dimension 1",
        "-2",
    );
    check(
        "x = mt.ones((2, 3))\nx[1, 5]\n",
        "index 5 is out of bounds for axis 1 with size 3",
        "5",
    );
    check(
        "x = mt.ones((2, 3))\nx[0, 0, 0]\n",
        "too many indices for array: array is 2-dimensional, but 3 were indexed",
        "0",
    );
    check(
        "x = mt.ones(3)\nx[::0]\n",
        "slice step cannot be zero",
        "::0",
    );
    check(
        "x = mt.ones(3)\nx[..., ...]\n",
        "an index can only have a single ellipsis ('...')",
        "...",
    );
    check(
        "x = mt.ones(3)\nx[x]\n",
        "arrays used as indices must be of integer (or boolean) type",
        "x",
    );
    check(
        "x = mt.ones((3, 3))\nx[[0, 1], [1, 2, 0]]\n",
        "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)",
        "[1, 2, 0]",
    );
    check(
        "x = mt.ones((3, 3))\nx[[True, False], [1, 2]]\n",
        "boolean index did not match indexed array along axis 0; size of axis is 3 but size \
         of corresponding boolean axis is 2",
        "[True, False]",
    );
    check(
        "x = mt.ones(3)\nx[1.5]\n",
        "only integers, slices (`:`), ellipsis (`...`) and None are valid indices, got float",
        "1.5",
    );
    check("print((1, 2)[2])\n", "tuple index out of range", "2");
    check("x = 3\nx[0]\n", "an int value is not subscriptable", "x");
}

#[test]
fn chunk_specs() {
    check(
        "mt.ones(5, chunks=0)\n",
        "chunk size must be positive, got 0",
        "0",
    );
    check(
        "mt.ones((5, 5), chunks=(2, 2, 2))\n",
        "chunks has 3 entries but the tensor has 2 dimensions",
        "(2, 2, 2)",
    );
    check(
        "mt.ones(5, chunks=((2, 2),))\n",
        "chunk splits (2, 2) sum to 4, but axis 0 has length 5",
        "((2, 2),)",
    );
    check(
        "mt.ones(10**9, chunks=1)\n",
        "these chunks would split the tensor into 1000000000 chunks, more than the 33554432 a tensor may have",
        "1",
    );
    check(
        "mt.ones((2**40, 2**40))\n",
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size",
        "mt.ones((2**40, 2**40))",
    );
}

#[test]
fn boolean_operators_on_tensors() {
    const AMBIGUOUS: &str =
        "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()";
    let d = diagnostic("x = mt.ones(3)\ny = x and x\n");
    assert_eq!(d.message, AMBIGUOUS);
    assert_eq!(
        d.help.as_deref(),
        Some("use `&`, `|`, `~` for element-wise logic, `.any()` or `.all()` for one truth")
    );
    assert_eq!(d.span.range(), 19..20);
    assert_eq!(d.secondary[0].0.range(), 21..24);
    check("x = mt.ones(3)\ny = x or 1\n", AMBIGUOUS, "x");
    check("x = mt.ones(3)\ny = not x\n", AMBIGUOUS, "x");
    check(
        "x = mt.ones(0)\ny = not x\n",
        "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.",
        "x",
    );
}

#[test]
fn python_value_errors() {
    check("n = 1 // 0\n", "integer division or modulo by zero", "//");
    check("n = 1 / 0\n", "division by zero", "/");
    check(
        "n = 2 ** 70\n",
        "not supported yet: integers outside the int64 range",
        "**",
    );
    check(
        "n = 'a' + 1\n",
        "unsupported operand types for `+`: str and int",
        "+",
    );
    check(
        "n = 1.5 & 1\n",
        "unsupported operand types for `&`: float and int",
        "&",
    );
    check("n = -'a'\n", "bad operand type for unary `-`: str", "-");
    check(
        "n = 'a' < 1\n",
        "`<`, `<=`, `>`, `>=` are not supported between str and int",
        "<",
    );
    check("n = int('x')\n", "invalid literal for int(): 'x'", "'x'");
}

#[test]
fn outputs_and_files() {
    let (message, text) = error("x = mt.load('no_such_file.npy')\n");
    assert!(
        message.starts_with("cannot load `no_such_file.npy`: "),
        "{message}"
    );
    assert_eq!(text, "'no_such_file.npy'");
    check(
        "mt.random.seed(-1)\n",
        "Seed must be between 0 and 2**32 - 1",
        "-1",
    );
    check("mt.random.randint(5, 5)\n", "low >= high", "5");
    check("mt.random.normal(0, -1)\n", "scale < 0", "-1");
}

#[test]
fn every_error_is_reported_in_source_order() {
    let source = "\
import mars.tensor as mt
a = mt.ones((2, 3))
b = a + mt.ones(4)
c = undefined_name
d = b * 2
e = a.sum(axis=3)
f = c + e
mt.ones(3, bad=1)
print(a[7])
";
    let all = errors(source);
    let messages: Vec<&str> = all.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "operands could not be broadcast together with shapes (2,3) (4,)",
            "cannot find `undefined_name` in this scope",
            "axis 3 is out of bounds for array of dimension 2",
            "`ones()` got an unexpected keyword argument `bad`",
            "index 7 is out of bounds for axis 0 with size 2",
        ],
        "errors that only repeat an earlier one (`d`, `f`) are not reported"
    );
}

/// A loop stops unrolling at the first iteration that reports an error, as Python
/// stops at the first exception: a later iteration's error and the loop's `else`
/// are not lowered, and the statements after the loop still are.
#[test]
fn a_loop_stops_at_its_first_failing_iteration() {
    let source = "for i in range(2):\n    if i == 0:\n        a = first_missing\n    else:\n        b = second_missing\nelse:\n    c = else_missing\nd = after_missing\n";
    let spans: Vec<String> = errors(source).into_iter().map(|(_, text)| text).collect();
    assert_eq!(spans, ["first_missing", "after_missing"]);
}

/// An error in the body of a loop that never ends is reported once, without
/// unrolling the loop up to the iteration budget (which took minutes).
#[test]
fn an_error_in_an_endless_loop_is_reported_at_once() {
    let (message, text) = error("k = 0\nwhile True:\n    k = k + missing_name\n");
    assert!(message.contains("missing_name"), "{message}");
    assert_eq!(text, "missing_name");
}
