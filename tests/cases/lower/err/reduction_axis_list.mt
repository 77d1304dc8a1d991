# reductions take an int or a tuple of axes, not a list (NumPy raises TypeError) -> error: `axis` must be an int or a tuple of ints, got list
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.sum(axis=[0, 1]))
