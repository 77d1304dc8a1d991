# linspace with a negative number of samples -> error: number of samples, -1, must be non-negative
import mars.tensor as mt
print(mt.linspace(0, 1, -1))
