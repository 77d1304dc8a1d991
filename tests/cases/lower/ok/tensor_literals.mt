# tensor/array from nested lists and tuples: dtype inferred like NumPy, 0-d from a scalar
import mars.tensor as mt
print(mt.tensor([1, 2, 3]).dtype, mt.tensor([1, 2.5]).dtype, mt.tensor([True, False]).dtype)
print(mt.tensor([[1, 2], [3, 4]]), mt.array(((1.5, 2), (3, 4))))
print(mt.tensor([True, 2]), mt.tensor([[1], [2]]).shape)
s = mt.tensor(3.5)
print(s, s.shape, s.ndim, mt.array(7).dtype)
print(mt.tensor([[-1, 0x1f], [1_000, -2]]), mt.tensor([1e-3, .5, 5.]))
