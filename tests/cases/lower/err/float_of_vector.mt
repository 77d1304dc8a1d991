# `float()` of a 1-d tensor -> error: only 0-dimensional arrays can be converted to Python scalars
import mars.tensor as mt
x = mt.arange(4)
print(float(x[1:]))
