"""`mars.tensor.random` for the NumPy oracle: `numpy.random` with `chunks=` ignored.

The oracle refuses scripts that use random numbers (marsc's stream differs from
NumPy's by design), so this module only makes such scripts importable.
"""

import numpy.random as _random


def __getattr__(name):
    function = getattr(_random, name)
    if not callable(function):
        return function

    def without_chunks(*args, **kwargs):
        kwargs.pop("chunks", None)
        kwargs.pop("chunk_size", None)
        return function(*args, **kwargs)

    return without_chunks
