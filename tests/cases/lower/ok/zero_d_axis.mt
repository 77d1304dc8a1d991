# NumPy accepts axis 0 or -1 on a 0-d tensor in ufunc reductions, argmax/argmin, scans (which read it as 1-d) and squeeze
import mars.tensor as mt
z = mt.tensor(3.5)
i = mt.tensor(3, dtype=mt.int32)
b = mt.tensor(True)
s = z.sum(axis=0)
print(s, s.shape, i.sum(axis=-1).dtype, b.prod(axis=0).dtype, b.max(axis=-1).dtype)
print(z.min(axis=0, keepdims=True).shape, i.all(axis=0), mt.count_nonzero(z, axis=-1))
print(z.argmax(axis=0), mt.argmin(z, axis=-1, keepdims=True).shape)
c = mt.cumsum(i, axis=0)
print(c, c.shape, c.dtype, b.cumprod(axis=-1), z.squeeze(0).shape, mt.squeeze(z, axis=-1).shape)
