# assignment through an integer array mixed with an integer or a partial slice is a later feature -> error: not supported yet: assigning through an integer array
import mars.tensor as mt
x = mt.arange(6.0).reshape(2, 3)
x[[0, 1], 2] = 7
print(x)
