# matmul and @ of stacks (..., n, k) as NumPy broadcasts them, chunked along the leading axes and across the matrices: a stack times a stack, a stack times one matrix and one matrix times a stack, leading axes of length 1 broadcast, a 1-D operand on either side, ints stay ints, bools are logical and-or, float32 kept
import mars.tensor as mt
a = (mt.arange(24, chunks=5).reshape((2, 3, 4)) % 7 - 3).rechunk((1, 2, 3))
b = (mt.arange(40, chunks=7).reshape((2, 4, 5)) * 3 % 11 - 5.0).rechunk((2, 3, 2))
print(a @ b)
print(mt.matmul(a, b[0]))
print(mt.matmul(b[1, :3, :3], a.reshape((2, 1, 3, 4)) * 1.5).shape, (a[0] @ a.reshape((2, 1, 3, 4)).swapaxes(-1, -2)).shape)
print(mt.matmul(a.reshape((2, 1, 3, 4)), b.reshape((1, 2, 4, 5)))[1, 0])
print(a @ mt.arange(4), mt.arange(3) @ a)
print((a @ a.swapaxes(1, 2)).dtype, (a.astype(mt.float32) @ b.astype(mt.float32)).dtype)
t = a > 0
print(t @ t.swapaxes(1, 2))
