# statistics and structure composed from existing ops (ptp, average with weights/axis/returned/keepdims, diff with n and bools, ediff1d with to_begin/to_end, isclose/allclose with equal_nan and infinities, array_equal, trace, diag both ways with k, diagonal with offset and axes, tril/triu with k on 1-, 2- and 3-d), under two chunkings
import mars.tensor as mt
nan = float("nan")
for c in [3, (2, 4)]:
    a = (mt.arange(20).reshape((4, 5)) * 1.5 - 7).rechunk(c)
    print(mt.ptp(a), mt.ptp(a, axis=0), mt.ptp(a, axis=1, keepdims=True))
    print(mt.average(a), mt.average(a, axis=0), mt.average(a, axis=1, weights=mt.arange(5)))
    print(mt.average(a, axis=(0, 1), weights=a * 0 + 2, keepdims=True))
    print(mt.average(mt.arange(6).reshape((2, 3)), axis=0, weights=[1, 3]))
    avg, scl = mt.average(a, axis=1, weights=mt.tensor([1.0, 2.0, 3.0, 4.0, 5.0]), returned=True)
    print(avg, scl)
    avg, scl = mt.average(a, axis=0, returned=True)
    print(avg, scl)
    print(mt.diff(a), mt.diff(a, n=2, axis=0), mt.diff(a, n=0), mt.diff(mt.tensor([True, False, False, True])))
    print(mt.ediff1d(a), mt.ediff1d(mt.tensor([1, 5, 2]), to_begin=-9, to_end=[7, 8]))
    b = a + 1e-9
    print(mt.isclose(a, b), mt.allclose(a, b), mt.allclose(a, a + 1), mt.isclose(mt.tensor([1.0, nan]), [1.0, nan], equal_nan=True))
    print(mt.isclose(mt.tensor([1e10, 1e-8]), mt.tensor([1.00001e10, 1e-9])), mt.isclose(mt.tensor([1, 2]), 1), mt.isclose(mt.tensor([1.0, mt.inf]), mt.inf))
    print(mt.array_equal(a, a), mt.array_equal(a, b), mt.array_equal(a, a[:2]), mt.array_equal(mt.tensor([1.0, nan]), mt.tensor([1.0, nan]), equal_nan=True))
    print(mt.trace(a), mt.trace(a, offset=1), mt.trace(a, offset=-2), a.trace(), mt.trace(mt.arange(8, chunks=3).reshape((2, 2, 2))))
    print(mt.diag(a), mt.diag(a, k=2), mt.diag(a, k=-3), mt.diag(a, k=9))
    print(mt.diag(mt.tensor([1, 2, 3], chunks=2)), mt.diag(mt.tensor([1.5, 2.5]), k=1), mt.diag(mt.tensor([True, True]), k=-2))
    print(mt.diagonal(a), a.diagonal(offset=1), mt.diagonal(mt.arange(24, chunks=5).reshape((2, 3, 4)), axis1=1, axis2=2), mt.diagonal(a, axis1=1, axis2=0))
    print(mt.tril(a), mt.triu(a, k=1), mt.tril(a, k=-1), mt.triu(mt.arange(3)), mt.tril(mt.ones((2, 3, 3), dtype=mt.bool_, chunks=2)))
