# matmul and @: 2-D x 2-D, 1-D on either side (promoted then the axis removed), 1-D x 1-D gives 0-d
import mars.tensor as mt
a = mt.arange(6).reshape(2, 3)
b = mt.arange(12).reshape(3, 4)
v = mt.tensor([1, 0, -1])
w = mt.tensor([1.0, 2.0])
print(a @ b, (a @ b).shape, mt.matmul(a, b).dtype)
print(a @ v, (a @ v).shape, w @ a, (w @ a).shape, (w @ a).dtype)
print(v @ v, (v @ v).shape, mt.matmul(v, b), a.T @ a)
print((mt.ones((4, 3), dtype=mt.float32) @ mt.ones(3, dtype=mt.float32)).dtype)
print((mt.ones((2, 2), dtype=mt.int32) @ mt.ones((2, 2), dtype=mt.int32)).dtype)
