# a float tensor is not an index, as NumPy says -> error: arrays used as indices must be of integer (or boolean) type
import mars.tensor as mt
x = mt.arange(10.0)
print(x[x / 2])
