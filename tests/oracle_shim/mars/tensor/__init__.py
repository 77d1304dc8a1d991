"""`mars.tensor` for the NumPy oracle: NumPy itself, with Mars's extras.

Every NumPy name is reachable (module `__getattr__` hands it over unchanged, so
ufuncs, dtypes and constants are NumPy's own objects and print as NumPy prints them).
What differs from NumPy is only what the language contract says differs:
- the creation functions accept Mars's `chunks=` / `chunk_size=` and ignore them;
- `tensor` is `array`, and `empty`/`empty_like` fill with zeros (the contract defines
  them so, to keep printed values deterministic).
`.execute()` and `.rechunk()` are not here: the oracle removes those method calls
from the script's syntax tree, so arrays stay plain `ndarray`s.
"""

import functools

import numpy as _np

from . import linalg, random  # noqa: F401  (mt.linalg, mt.random)

CHUNK_KEYWORDS = ("chunks", "chunk_size")


def drop_chunk_keywords(function):
    """Wraps a NumPy function so that it accepts and ignores Mars's chunk arguments."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        for keyword in CHUNK_KEYWORDS:
            kwargs.pop(keyword, None)
        return function(*args, **kwargs)

    return wrapper


# The functions that take `chunks=` in Mars (and in marsc): the creation functions.
_CREATION = {
    "tensor": _np.array,
    "array": _np.array,
    "asarray": _np.asarray,
    "ones": _np.ones,
    "zeros": _np.zeros,
    "empty": _np.zeros,
    "full": _np.full,
    "ones_like": _np.ones_like,
    "zeros_like": _np.zeros_like,
    "empty_like": _np.zeros_like,
    "full_like": _np.full_like,
    "arange": _np.arange,
    "linspace": _np.linspace,
    "eye": _np.eye,
    "identity": _np.identity,
    "load": _np.load,
    "fromfile": _np.fromfile,
}

globals().update({name: drop_chunk_keywords(f) for name, f in _CREATION.items()})


def __getattr__(name):
    """Every other name is NumPy's."""
    try:
        return getattr(_np, name)
    except AttributeError:
        raise AttributeError(f"module 'mars.tensor' has no attribute '{name}'") from None


def _zarr_path(path, group, dataset):
    """Mars's array location: `path/group/dataset`, parts that are `None` left out."""
    parts = [str(path).rstrip("/")] + [
        part.strip("/") for part in (group, dataset) if part is not None
    ]
    return "/".join(parts)


def fromzarr(path, group=None, dataset=None, chunk_size=None):
    """Mars's `fromzarr`: the whole array, read with zarr-python (which the oracle
    needs only for scripts that use Zarr)."""
    import zarr

    return zarr.open_array(_zarr_path(path, group, dataset), mode="r")[...]


def tozarr(path, x, group=None, dataset=None, mode="w", chunks=None, **options):
    """Mars's `tozarr` through zarr-python: what marsc writes (its options are
    marsc's; see docs/language.md), for scripts that read the array back."""
    import zarr

    x = _np.asarray(x)
    if chunks is None:
        chunks = x.shape
    compressor = options.pop("compressor", "default")
    if compressor is None or compressor == "none":
        options["compressors"] = None
    options.pop("shards", None)
    zarr.create_array(
        _zarr_path(path, group, dataset),
        data=x,
        chunks=chunks,
        overwrite=mode == "w",
        **options,
    )


from_zarr = fromzarr
to_zarr = tozarr


def topk(a, k, axis=-1, largest=True, sorted=True, order=None, parallel_kind="auto",
         psrs_kinds=None, return_index=False):
    """Mars's `topk`: the `k` largest (or smallest) elements along `axis`, in
    order — the last `k` of a stable sort, reversed, for the largest (NaN, which
    sorts last, counts as the largest) — and with `return_index` their positions."""
    a = _np.asarray(a)
    idx = _np.argsort(a, axis=axis, kind="stable")
    if largest:
        idx = _np.flip(idx, axis=axis)
    idx = _np.take(idx, _np.arange(k), axis=axis)
    values = _np.take_along_axis(a, idx, axis=axis)
    return (values, idx) if return_index else values
