# reductions with axis=None|int|tuple and keepdims
import mars.tensor as mt
a = mt.arange(24, chunks=5).reshape(2, 3, 4)
print(a.sum(), a.sum(axis=0), a.sum(axis=(0, 2)), a.sum(axis=-1, keepdims=True))
print(mt.mean(a), a.std(ddof=1), a.argmax(axis=1), mt.count_nonzero(a > 3))
print(a.max(axis=None), a.min(), a.prod(), a.all(), a.any(), a.cumsum(axis=None))
