# a scan reads a 0-d tensor as 1-d, so axis 1 is out of range of dimension 1 -> error: axis 1 is out of bounds for array of dimension 1
import mars.tensor as mt
print(mt.cumsum(mt.tensor(2), axis=1))
