# tensor methods mirror the functions: sum, prod, mean, max, min, std, var, argmax, argmin, all, any, cumsum, cumprod, reshape, ravel, squeeze, swapaxes, transpose, dot, clip, astype
import mars.tensor as mt
x = mt.arange(1, 7).reshape(2, 3)
print(x.sum(), x.prod(), x.mean(), x.max(), x.min(), x.std(), x.var())
print(x.argmax(), x.argmin(axis=0), x.all(), x.any(axis=1))
print(x.cumsum(), x.cumprod(axis=1), x.ravel(), x.reshape(3, 2).shape)
print(x[None].squeeze().shape, x.swapaxes(0, 1).shape, x.transpose().shape)
print(x.dot(x.T), x.clip(2, 5), x.astype(mt.float32).dtype)
print(x.sum(0), x.mean(1), x.max(axis=0, keepdims=True).shape, x.min(-1))
