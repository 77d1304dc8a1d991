# a float where an axis is expected -> error: expected an int or a tuple of ints for `axis`, found a float
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.sum(axis=1.5))
