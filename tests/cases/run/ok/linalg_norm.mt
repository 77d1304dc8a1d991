# mt.linalg.norm: vector orders None/2/1/inf/-inf/0/p over one axis, matrix orders None/'fro'/1/-1/inf/-inf over two axes in either order, keepdims, axis=None on 1-, 2- and 3-d, ints and bools made float64, float32 kept, chunks across the reduced axes
import mars.tensor as mt
inf = float("inf")
a = (mt.arange(24, chunks=5).reshape((4, 6)) * 0.75 - 8).rechunk((3, 4))
v = mt.tensor([3.0, -4.0, 0.0, 1.5], chunks=3)
print(mt.linalg.norm(v), mt.linalg.norm(v, 2), mt.linalg.norm(v, 1), mt.linalg.norm(v, inf), mt.linalg.norm(v, -inf), mt.linalg.norm(v, 0), mt.linalg.norm(v, 3), mt.linalg.norm(v, 0.5))
print(mt.linalg.norm(a), mt.linalg.norm(a, 'fro'), mt.linalg.norm(a, 1), mt.linalg.norm(a, -1), mt.linalg.norm(a, inf), mt.linalg.norm(a, -inf))
print(mt.linalg.norm(a, axis=1), mt.linalg.norm(a, axis=0, ord=1), mt.linalg.norm(a, axis=-1, ord=inf, keepdims=True))
print(mt.linalg.norm(a, axis=(1, 0)), mt.linalg.norm(a, ord=1, axis=(1, 0)), mt.linalg.norm(a, ord=inf, axis=(1, 0), keepdims=True))
b = mt.arange(24, chunks=7).reshape((2, 3, 4))
print(mt.linalg.norm(b), mt.linalg.norm(b, keepdims=True), mt.linalg.norm(b, axis=(0, 2)), mt.linalg.norm(b, ord=-inf, axis=(2, 1)), mt.linalg.norm(b, ord=0, axis=1))
import numpy as np
print(np.linalg.norm(a, axis=0), np.linalg.norm(a.T, ord="f"))
