# ones_like, zeros_like, full_like keep the shape and dtype of their argument unless dtype= is given
import mars.tensor as mt
a = mt.arange(6).reshape(2, 3)
f = mt.linspace(0, 1, 4, dtype="float32")
print(mt.ones_like(a), mt.ones_like(a).dtype)
print(mt.zeros_like(f), mt.zeros_like(f).dtype)
print(mt.full_like(a, 9), mt.full_like(a, 2.7))
print(mt.full_like(f, 0.5), mt.full_like(a, 1, dtype=mt.float64).dtype)
print(mt.ones_like(a, dtype=bool))
