# 0-d tensors: full reductions, tensor(scalar), and reshape(()) print as NumPy scalars and broadcast anywhere
import mars.tensor as mt
s = mt.arange(10).sum()
t = mt.tensor(2.5)
print(s, s.shape, s.ndim, t, t * s, (t * s).dtype)
print(mt.sqrt(t), -t, t > 2, mt.arange(3) * s, mt.ones(4).reshape(2, 2).sum(axis=(0, 1)))
print(mt.ones(1).reshape(()), mt.tensor(True), mt.tensor(7).astype(mt.float32), mt.tensor(1.0e20))
