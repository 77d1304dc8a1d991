# assignment through an integer array is a later feature -> error: not supported yet: assigning through an integer array
import mars.tensor as mt
x = mt.arange(5.0)
x[[0, 2]] = 7
print(x)
