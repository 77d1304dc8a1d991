"""`mars.tensor.linalg` for the NumPy oracle: NumPy's `linalg`, plus Mars's `lu`.

Mars's `lu` is SciPy's (`a = p @ l @ u`, partial pivoting: the largest magnitude
in the column, the first on ties, as LAPACK's `getrf`); SciPy is not needed here,
the few lines below are the textbook algorithm.
"""

import numpy as _np


def __getattr__(name):
    """Every other name is NumPy's."""
    try:
        return getattr(_np.linalg, name)
    except AttributeError:
        raise AttributeError(f"module 'mars.tensor.linalg' has no attribute '{name}'") from None


def lu(a):
    a = _np.asarray(a)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected a square matrix")
    result = a.dtype if a.dtype.kind == "f" else _np.float64
    n = a.shape[0]
    u = a.astype(_np.float64)
    lower = _np.zeros((n, n))
    order = _np.arange(n)
    for k in range(n):
        pivot = k + int(_np.argmax(_np.abs(u[k:, k])))
        if pivot != k:
            u[[k, pivot]] = u[[pivot, k]]
            lower[[k, pivot], :k] = lower[[pivot, k], :k]
            order[[k, pivot]] = order[[pivot, k]]
        if u[k, k] != 0.0:
            lower[k + 1:, k] = u[k + 1:, k] / u[k, k]
            u[k + 1:, k:] -= _np.outer(lower[k + 1:, k], u[k, k:])
        u[k + 1:, k] = 0.0
    lower[_np.arange(n), _np.arange(n)] = 1.0
    p = _np.zeros((n, n))
    p[order, _np.arange(n)] = 1.0
    return p.astype(result), lower.astype(result), u.astype(result)
