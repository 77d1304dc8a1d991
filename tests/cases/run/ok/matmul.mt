# matrix products over blocks: uneven chunks on every axis, matrix-vector, vector-matrix, dot, outer, mixed dtypes
import mars.tensor as mt
a = mt.arange(35, chunks=6).reshape(5, 7) % 4 - 1.5
b = mt.arange(21, chunks=4).reshape(7, 3).rechunk((3, 2))
print(a @ b, mt.matmul(a, b).shape, a.rechunk((2, 3)) @ b.rechunk((3, 1)))
v = mt.arange(7, chunks=3)
print(a @ v, v @ b, v @ v, mt.dot(a, b), mt.dot(v, v))
print(mt.outer(mt.arange(4, chunks=3), mt.arange(3, chunks=2)), mt.arange(6).reshape(2, 3) @ mt.ones((3, 2), dtype=int))
i = mt.arange(12, dtype=mt.int32, chunks=5).reshape(3, 4)
print(i @ i.T, (i @ i.T).dtype, i.astype(mt.float32) @ mt.ones(4, dtype=mt.float32))
