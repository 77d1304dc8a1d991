# a reduction axis past the last axis -> error: axis 2 is out of bounds for a tensor of dimension 2
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.sum(axis=2))
