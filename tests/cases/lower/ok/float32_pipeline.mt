# a float32 pipeline stays float32 through ops with Python scalars, unary math, reductions and matmul
import mars.tensor as mt
x = mt.linspace(0, 1, 6, dtype=mt.float32)
y = mt.exp(-x * 0.5) * 3 + 1
print(y, y.dtype)
print(y.sum().dtype, y.mean(), y.std().dtype, y.cumsum().dtype, (y @ y).dtype)
print(mt.sqrt(y).dtype, (y / 3).dtype, (y // 1).dtype, mt.where(y > 2, y, 0.0).dtype)
print((y.reshape(2, 3) @ mt.ones((3, 2), dtype=mt.float32)).dtype, mt.maximum(y, 2.5).dtype)
