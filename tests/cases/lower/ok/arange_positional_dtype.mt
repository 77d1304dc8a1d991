# arange takes dtype as its fourth positional argument, as NumPy's arange([start,] stop[, step,] dtype) does
import mars.tensor as mt
a = mt.arange(0, 5, 0.5, mt.int64)
b = mt.arange(1, 10, 3, "float32")
print(a.shape, a.dtype, b, b.dtype)
