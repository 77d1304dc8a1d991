# a negative axis before the first axis -> error: axis -3 is out of bounds for a tensor of dimension 2
import mars.tensor as mt
x = mt.ones((2, 3))
print(mt.mean(x, axis=-3))
