# shape, dtype, ndim, size and T are known at compile time and print like NumPy's
import mars.tensor as mt
x = mt.ones((3, 4), dtype=mt.float32)
print(x.shape, x.dtype, x.ndim, x.size)
print(x.T.shape, x.sum().shape, x.sum().ndim, x.sum().size, mt.tensor([1, 2]).dtype)
print(mt.ones((0, 5)).size, mt.ones(()).shape, (x > 0).dtype)
n = x.size
print(n, x.shape, "rows:", 3, "dtype is", x.dtype)
print(mt.zeros(x.shape).shape, mt.ones(x.size).shape, x.reshape(x.size).shape)
