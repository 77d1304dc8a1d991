# reductions are trees: map, combine levels with fan-in 4 spread over the reduced axes, finish
import mars.tensor as mt
x = mt.ones((8, 12), chunks=(2, 3))
print(x.sum())
print(x.mean(axis=0))
print(x.var(axis=1, ddof=1, keepdims=True))
print(x.argmax(), mt.argmin(x, axis=0))
print(mt.count_nonzero(x), (x > 0).all(), x.max(axis=(0, 1)))
