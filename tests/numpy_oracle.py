#!/usr/bin/env python3
"""Runs a `.mt` script under real NumPy and prints what it prints.

The output is the reference that marsc must reproduce (the spec's one rule of
semantics): `mt.` and `np.` both mean NumPy, `chunks=` / `chunk_size=` are dropped,
`.execute()` and `.rechunk(...)` return their tensor unchanged, and every version-1
library name is also reachable unprefixed.

Usage:
    python3 tests/numpy_oracle.py SCRIPT.mt > expected.out

Exit status: 0 success; 1 the script failed under NumPy (the error goes to stderr);
2 bad usage or a statement form outside version 1; 3 the script cannot be checked
by an oracle (it uses `random.` or `.nsplits`, whose values NumPy cannot reproduce).

Scripts are rewritten at the syntax-tree level rather than by wrapping arrays, so
every value the script prints is a plain NumPy object and prints byte-for-byte as
NumPy prints it.
"""

import ast
import functools
import sys
import types

import numpy as np

# Every function of the version-1 library (language.md, "Library, version 1"),
# under the names a script may use. Random functions are absent on purpose: the
# oracle refuses scripts that use them.
V1_FUNCTIONS = """
    ones zeros full ones_like zeros_like full_like arange linspace eye identity
    negative positive abs absolute sqrt square exp expm1 log log1p log2 log10
    sin cos tan arcsin arccos arctan sinh cosh tanh floor ceil trunc rint sign
    reciprocal isnan isinf isfinite logical_not invert
    add subtract multiply divide true_divide floor_divide mod remainder power
    maximum minimum fmax fmin arctan2 hypot equal not_equal less less_equal
    greater greater_equal logical_and logical_or logical_xor
    bitwise_and bitwise_or bitwise_xor
    where clip
    sum prod mean max amax min amin std var argmax argmin all any count_nonzero
    cumsum cumprod
    matmul dot outer transpose
    reshape ravel expand_dims squeeze swapaxes concatenate stack hstack vstack
    broadcast_to
""".split()

# Names whose marsc meaning is a different NumPy function.
RENAMED = {
    "tensor": np.array,
    "array": np.array,
    # The spec defines `empty` as zeros, so scripts may print its values.
    "empty": np.zeros,
    "load": np.load,
    "save": np.save,
}

V1_DTYPES = ["bool", "int32", "int64", "float32", "float64"]

CHUNK_KEYWORDS = ("chunks", "chunk_size")

# Refusal reasons for attributes NumPy cannot reproduce.
UNCHECKABLE_ATTRIBUTES = {
    "random": "it uses random numbers, whose stream differs from NumPy's by design",
    "nsplits": "it reads .nsplits, which NumPy arrays do not have",
}


class OracleRefusal(Exception):
    """The script is valid but an oracle cannot produce its expected output."""


class NotVersionOne(Exception):
    """The script uses a statement form outside version 1."""


def drop_chunk_keywords(function):
    """Wraps a NumPy function so that it accepts and ignores marsc's chunk arguments."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        for keyword in CHUNK_KEYWORDS:
            kwargs.pop(keyword, None)
        return function(*args, **kwargs)

    return wrapper


def library_namespace():
    """The names a script reaches as `mt.NAME`, `np.NAME` or bare `NAME`."""
    names = {name: drop_chunk_keywords(getattr(np, name)) for name in V1_FUNCTIONS}
    names.update({name: drop_chunk_keywords(f) for name, f in RENAMED.items()})
    names.update({name: getattr(np, name) for name in V1_DTYPES})
    return names


class Library(types.SimpleNamespace):
    """The `mt` / `np` module object: NumPy restricted to the version-1 library."""

    def __getattr__(self, name):
        raise AttributeError(f"'{name}' is not a function of the version-1 library")


def check_checkable(tree):
    """Raises OracleRefusal when the script's output cannot come from NumPy."""
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        if name in UNCHECKABLE_ATTRIBUTES:
            line = getattr(node, "lineno", "?")
            raise OracleRefusal(f"line {line}: {UNCHECKABLE_ATTRIBUTES[name]}")


class MarsToNumpy(ast.NodeTransformer):
    """Rewrites the Mars-only parts of a script into plain NumPy."""

    LIBRARY_MODULES = ("mars.tensor", "numpy")

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        # `x.execute()` and `x.rechunk(...)` are identities under NumPy.
        if isinstance(func, ast.Attribute) and func.attr in ("execute", "rechunk"):
            return func.value
        return node

    def visit_AugAssign(self, node):
        # `x += y` means `x = x + y` in marsc: a new value bound to the name. NumPy's
        # in-place update would instead keep x's dtype and mutate other names' values.
        self.generic_visit(node)
        target = node.target
        value = ast.BinOp(
            left=ast.Name(id=target.id, ctx=ast.Load()), op=node.op, right=node.value
        )
        return ast.copy_location(
            ast.Assign(targets=[ast.Name(id=target.id, ctx=ast.Store())], value=value),
            node,
        )

    def visit_Import(self, node):
        statements = []
        for alias in node.names:
            if alias.name not in self.LIBRARY_MODULES:
                raise NotVersionOne(
                    f"line {node.lineno}: unknown module '{alias.name}'"
                )
            if alias.asname is not None:
                target, value = alias.asname, "__library__"
            elif alias.name == "numpy":
                target, value = "numpy", "__library__"
            else:
                target, value = "mars", "__mars_package__"
            statements.append(
                ast.copy_location(
                    ast.Assign(
                        targets=[ast.Name(id=target, ctx=ast.Store())],
                        value=ast.Name(id=value, ctx=ast.Load()),
                    ),
                    node,
                )
            )
        return statements


def check_statement_forms(tree):
    """Rejects statements outside version 1 (blocks, defs, multiple targets, ...)."""
    for statement in tree.body:
        allowed = isinstance(statement, (ast.Import, ast.Expr))
        if isinstance(statement, ast.Assign):
            allowed = len(statement.targets) == 1 and isinstance(
                statement.targets[0], ast.Name
            )
        if isinstance(statement, ast.AugAssign):
            allowed = isinstance(statement.target, ast.Name)
        if not allowed:
            raise NotVersionOne(
                f"line {statement.lineno}: not a version-1 statement "
                f"({type(statement).__name__})"
            )


def script_globals():
    """The global namespace a script runs in: the library, unprefixed and as `mt`."""
    names = library_namespace()
    library = Library(**names)
    scope = dict(names)
    scope["__builtins__"] = __builtins__
    scope["__library__"] = library
    scope["__mars_package__"] = types.SimpleNamespace(tensor=library)
    scope["mt"] = library
    scope["np"] = library
    return scope


def run(source, path):
    tree = ast.parse(source, filename=path)
    check_statement_forms(tree)
    check_checkable(tree)
    tree = ast.fix_missing_locations(MarsToNumpy().visit(tree))
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
    try:
        run(source, path)
    except OracleRefusal as refusal:
        print(f"numpy_oracle: cannot check {path}: {refusal}", file=sys.stderr)
        return 3
    except (NotVersionOne, SyntaxError) as error:
        print(f"numpy_oracle: {path}: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # the script's own failure under NumPy
        sys.stdout.flush()
        print(
            f"numpy_oracle: {path} failed: {type(error).__name__}: {error}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
