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


def _batched(function, a, *rest):
    """`function` on each matrix of a stack `(..., M, M)`, results stacked (SciPy
    1.16's batching of `lu`)."""
    lead = a.shape[:-2]
    results = [function(a[index], *rest) for index in _np.ndindex(lead)]
    return tuple(_np.stack([r[k] for r in results]).reshape(lead + results[0][k].shape)
                 for k in range(len(results[0])))


def lu(a):
    a = _np.asarray(a)
    if a.ndim > 2 and a.shape[-1] == a.shape[-2]:
        return _batched(lu, a)
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


def solve_triangular(a, b, lower=False, sparse=None):
    """Mars's (SciPy's) `solve_triangular`: substitution through the named triangle
    only, as LAPACK's `trtrs`."""
    a = _np.asarray(a)
    b = _np.asarray(b)
    if a.ndim > 2 or b.ndim > 2:
        # SciPy 1.16's batching: a 1-D b is one vector for every matrix, otherwise
        # b is (..., M, K); the leading axes broadcast.
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ValueError("expected square matrix")
        core = 1 if b.ndim < 2 else 2
        lead = _np.broadcast_shapes(a.shape[:-2], b.shape[:b.ndim - core])
        a = _np.broadcast_to(a, lead + a.shape[-2:])
        b = _np.broadcast_to(b, lead + b.shape[b.ndim - core:])
        results = [solve_triangular(a[i], b[i], lower) for i in _np.ndindex(lead)]
        return _np.stack(results).reshape(lead + results[0].shape)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected square matrix")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"shapes of a {a.shape} and b {b.shape} are incompatible")
    single = a.dtype == _np.float32 and b.dtype == _np.float32
    result = _np.float32 if single else _np.float64
    n = a.shape[0]
    t = a.astype(_np.float64)
    x = b.astype(_np.float64).copy()
    for i in range(n):
        if t[i, i] == 0.0:
            raise _np.linalg.LinAlgError(f"singular matrix: resolution failed at diagonal {i}")
    rows = range(n) if lower else range(n - 1, -1, -1)
    for i in rows:
        known = slice(0, i) if lower else slice(i + 1, n)
        x[i] = (x[i] - t[i, known] @ x[known]) / t[i, i]
    return x.astype(result)


def svd_compressed(a, k, iterator="power", n_power_iter=0, n_oversamples=10, seed=None,
                   compute=False, coerce_signs=True):
    """dask.array's randomized `svd_compressed`, here the exact SVD's leading `k`
    triplets (what the randomized one gives for a matrix of rank at most its
    subspace), with dask's `svd_flip` signs."""
    a = _np.asarray(a)
    m, n = a.shape
    level = min(max(20, k + n_oversamples), min(m, n))
    k = min(k, level)
    u, s, vh = _np.linalg.svd(a, full_matrices=False)
    u, s, vh = u[:, :k], s[:k], vh[:k]
    if coerce_signs:
        signs = _np.where(vh.sum(axis=1) >= 0, 1.0, -1.0)
        u = u * signs
        vh = vh * signs[:, None]
    return u, s, vh
