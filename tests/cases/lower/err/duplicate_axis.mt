# the same axis twice in an axis tuple (0 and -2 are the same axis of a 2-D tensor) -> error: duplicate value in axis: 0
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.sum(axis=(0, -2)))
