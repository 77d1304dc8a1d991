#!/usr/bin/env python3
"""Runs a `.mt` script as real Python with NumPy and prints what it prints.

The output is the reference that marsc must reproduce (the contract's one rule of
semantics). The script runs unchanged as Python, against a small `mars.tensor` shim
(`tests/oracle_shim/mars/tensor/`, first on `sys.path`): NumPy with the creation
functions' `chunks=` / `chunk_size=` ignored, `tensor` meaning `array` and `empty`
filling with zeros. `import numpy` gets the same module. Two rewrites remain, at the
syntax-tree level: `x.execute(...)`, `x.fetch(...)`, `x.to_numpy()` and `x.rechunk(...)` become `x`
(so arrays stay plain `ndarray`s and print byte-for-byte as NumPy prints them).

Python's own semantics are kept: builtins such as `sum`, `max`, `abs`, `round` and
`len` are Python's, and `x += y` updates an array in place. As the contract says,
the library's other names are also reachable unprefixed (pre-bound in the script's
globals; a Python builtin of the same name is never shadowed), and `mt`/`np` are
bound even without an import.

Usage:
    python3 tests/numpy_oracle.py SCRIPT.mt > expected.out

Exit status: 0 success; 1 the script failed under Python + NumPy (the error goes to
stderr); 2 bad usage or a syntax error; 3 the script cannot be checked by an oracle
(it uses `random` or `.nsplits`, whose values NumPy cannot reproduce).
"""

import ast
import builtins
import os
import sys

SHIM_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle_shim")

# The library names (language.md, "Library, version 1", and marsc's synonyms)
# a script may use without a prefix. Names of Python's builtins among them (`abs`,
# `all`, `any`, `max`, `min`, `sum`) are left out: bare, they are Python's.
BARE_LIBRARY_NAMES = """
    tensor array asarray ones zeros full empty ones_like zeros_like empty_like
    full_like arange linspace eye identity load save
    fromzarr from_zarr tozarr to_zarr
    negative positive absolute sqrt square exp expm1 log log1p log2 log10
    sin cos tan arcsin arccos arctan sinh cosh tanh floor ceil trunc rint sign
    reciprocal isnan isinf isfinite logical_not invert bitwise_not
    add subtract multiply divide true_divide floor_divide mod remainder power
    maximum minimum fmax fmin arctan2 hypot equal not_equal less less_equal
    greater greater_equal logical_and logical_or logical_xor
    bitwise_and bitwise_or bitwise_xor
    where clip
    prod mean amax amin std var argmax argmin count_nonzero
    cumsum cumprod
    matmul dot outer transpose
    reshape ravel expand_dims squeeze swapaxes concatenate stack hstack vstack
    broadcast_to
    int32 int64 float32 float64 bool_ double single int_ intp
    pi e inf nan newaxis
""".split()

# Method calls that are identities under NumPy.
IDENTITY_METHODS = ("execute", "fetch", "to_numpy", "rechunk")

# Refusal reasons for names NumPy cannot reproduce.
UNCHECKABLE_NAMES = {
    "random": "it uses random numbers, whose stream differs from NumPy's by design",
    "nsplits": "it reads .nsplits, which NumPy arrays do not have",
}


class OracleRefusal(Exception):
    """The script is valid but an oracle cannot produce its expected output."""


def check_checkable(tree):
    """Raises OracleRefusal when the script's output cannot come from NumPy."""
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.alias):
            name = node.name.split(".")[-1]
        if name in UNCHECKABLE_NAMES:
            line = getattr(node, "lineno", "?")
            raise OracleRefusal(f"line {line}: {UNCHECKABLE_NAMES[name]}")


class DropIdentityMethods(ast.NodeTransformer):
    """Rewrites `x.execute()`, `x.fetch()` and `x.rechunk(...)` into `x` (not the
    module function `mars.execute(...)`, which the shim has)."""

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        module_call = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == "mars"
        if isinstance(func, ast.Attribute) and func.attr in IDENTITY_METHODS and not module_call:
            return func.value
        return node


def shim_import(real_import):
    """`__import__` with `numpy` meaning the shim (which accepts `chunks=`)."""

    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        # Only the script's own `import numpy` / `import numpy.random`: NumPy's C code
        # imports its private submodules through the same hook while the script's
        # frame is current, and those must stay NumPy's.
        if level == 0 and name in ("numpy", "numpy.random"):
            real_import("mars.tensor.random", globals, locals, (), 0)
            shim = sys.modules["mars.tensor"]
            return shim.random if name == "numpy.random" and fromlist else shim
        return real_import(name, globals, locals, fromlist, level)

    return importer


def script_globals():
    """The globals a script starts with: Python's builtins (with `numpy` imported as
    the shim), the library's non-builtin names, and `mt`/`np`."""
    import mars.tensor as library

    script_builtins = dict(vars(builtins))
    script_builtins["__import__"] = shim_import(builtins.__import__)
    scope = {
        name: getattr(library, name)
        for name in BARE_LIBRARY_NAMES
        if name not in script_builtins
    }
    scope.update(
        {
            "__builtins__": script_builtins,
            "__name__": "__main__",
            "mt": library,
            "np": library,
        }
    )
    return scope


def run(source, path):
    tree = ast.parse(source, filename=path)
    check_checkable(tree)
    tree = ast.fix_missing_locations(DropIdentityMethods().visit(tree))
    exec(compile(tree, path, "exec"), script_globals())


def main(argv):
    if len(argv) != 2:
        print("usage: numpy_oracle.py SCRIPT.mt", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, encoding="utf-8") as file:
            source = file.read()
    except OSError as error:
        print(f"numpy_oracle: cannot read {path}: {error}", file=sys.stderr)
        return 2
    sys.dont_write_bytecode = True
    sys.path.insert(0, SHIM_DIR)
    try:
        run(source, path)
    except OracleRefusal as refusal:
        print(f"numpy_oracle: cannot check {path}: {refusal}", file=sys.stderr)
        return 3
    except SyntaxError as error:
        print(f"numpy_oracle: {path}: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # the script's own failure under Python + NumPy
        sys.stdout.flush()
        print(
            f"numpy_oracle: {path} failed: {type(error).__name__}: {error}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
