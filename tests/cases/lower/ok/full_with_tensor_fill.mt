# full and full_like broadcast a tensor or list fill value into the new array (cast to dtype), as NumPy's copyto does
import mars.tensor as mt
x = mt.arange(3.0, chunks=2)
a = mt.full((2, 3), x)
b = mt.full((4, 5), x.mean(), chunks=2)
c = mt.full((2, 3), [[1], [2]], dtype=mt.int32)
d = mt.full_like(mt.ones((2, 3), dtype=mt.int32, chunks=(1, 3)), x)
print(a.shape, a.dtype, b.dtype, c.dtype, d.dtype)
print(a, b, c, d)
