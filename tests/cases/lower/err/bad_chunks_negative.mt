# a negative chunk size -> error: invalid chunks: chunk size -3 must be positive (or -1 for the whole axis)
import mars.tensor as mt
print(mt.ones(10, chunks=-3))
