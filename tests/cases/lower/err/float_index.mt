# a float used as an index -> error: only integers, slices, None and ... are valid indices, found a float
import mars.tensor as mt
x = mt.arange(5)
print(x[1.5])
