# a float as a slice bound -> error: slice indices must be integers or None, found a float
import mars.tensor as mt
x = mt.arange(5)
print(x[1.5:])
