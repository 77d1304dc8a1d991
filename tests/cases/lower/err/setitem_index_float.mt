# an index of floats is NumPy's IndexError -> error: arrays used as indices must be of integer (or boolean) type
import mars.tensor as mt
x = mt.arange(10)
x[mt.array([1.0, 2.0])] = 0
print(x)
