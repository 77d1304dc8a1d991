# None inserts a length-1 axis, ... stands for every remaining axis, and they mix with ints and slices
import mars.tensor as mt
x = mt.arange(24).reshape(2, 3, 4)
print(x[None].shape, x[:, None].shape, x[..., None].shape, x[None, ..., None].shape)
print(x[...].shape, x[..., 0].shape, x[0, ...].shape, x[1, ..., 2], x[..., 1, :].shape)
print(x[:, None, 1, None, ::2].shape, x[None, 0, None, :, None].shape)
v = mt.arange(3)
print(v[:, None] * v[None, :], mt.tensor(4)[None], mt.tensor(4)[...])
