# around / round / a.round(decimals): NumPy's PyArray_Round (rint of a scaled value, in the array's dtype)
import mars.tensor as mt
x = mt.arange(-12, 13, chunks=5) / 8
print(mt.around(x), mt.round(x, 1), x.round(2))
print(mt.round(mt.array([0.5, 1.5, 2.5, -0.5, -1.5], chunks=2)))
print(mt.round(mt.array([1234.5678, -0.125, 2.675]), -2), mt.round(mt.array([2.675, 1.005]), 2))
f32 = mt.array([0.125, 0.375, 1.2345678], dtype='float32')
print(mt.round(f32, 2), mt.round(f32, 2).dtype, mt.round(f32).dtype)
f16 = mt.array([1.5, 2.5, 0.33], dtype='float16')
print(mt.round(f16, 1), mt.round(f16, 1).dtype)
i = mt.array([15, 25, -35, 125], dtype='int8')
print(mt.round(i), mt.round(i, 3).dtype, mt.round(i, -1), mt.round(i, -1).dtype)
u = mt.array([250, 149, 150], dtype='uint8')
print(mt.round(u, -2), mt.round(u, -1))
print(mt.round(mt.array([True, False])), mt.round(mt.array([True, False])).dtype)
print(mt.round(2.5), mt.round(7, -1), mt.around(mt.array([1e300]), 10))
print(mt.round(mt.array([123.456]), 400), mt.round(mt.array([1.23456789e-5]), 30), mt.round(mt.array([1e22 + 1]), -22))
m = mt.arange(12, chunks=4).reshape(3, 4) / 7
r = m.round(3)
r += 1
print(r, m.sum())
print(mt.round(m, 2).sum(axis=0))
