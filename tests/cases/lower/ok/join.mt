# concatenate (axis 0, 1, -1), stack (a new axis anywhere), hstack and vstack of 1-D and 2-D tensors, mixed dtypes promote
import mars.tensor as mt
a = mt.arange(6).reshape(2, 3)
b = mt.arange(6, 12).reshape(2, 3)
print(mt.concatenate([a, b]), mt.concatenate((a, b), axis=1).shape, mt.concatenate([a, b, a], axis=-1).shape)
print(mt.stack([a, b]).shape, mt.stack([a, b], axis=1).shape, mt.stack((a, b), axis=-1).shape)
u = mt.tensor([1, 2])
v = mt.tensor([3.5, 4.5])
print(mt.hstack([u, v]), mt.vstack([u, v]), mt.hstack((a, b)).shape, mt.vstack([a, b, a]).shape)
print(mt.concatenate([u, mt.zeros(0, dtype=int), u]), mt.stack([u, u, u]).dtype, mt.concatenate([a]).shape)
print(mt.vstack([a, v.reshape(1, 2) @ mt.ones((2, 3))]).dtype)
