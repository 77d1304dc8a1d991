# reductions over axis=None, an int, a negative int or a tuple, with and without keepdims
import mars.tensor as mt
x = mt.arange(24).reshape(2, 3, 4)
print(x.sum(), x.sum(axis=0).shape, x.sum(axis=-1), x.sum(axis=(0, 2)))
print(mt.sum(x, 1).shape, mt.sum(x, axis=(2, 0)), x.sum(axis=(0, 1, 2)))
print(x.sum(keepdims=True).shape, x.sum(axis=1, keepdims=True).shape)
print(x.max(axis=(1, 2), keepdims=True), x.min(axis=-2).shape)
print(mt.prod(mt.arange(1, 7).reshape(2, 3), axis=1), mt.mean(x, axis=(0, 1)))
print(x.sum(axis=()).shape, mt.amax(x), mt.amin(x, axis=0).shape)
