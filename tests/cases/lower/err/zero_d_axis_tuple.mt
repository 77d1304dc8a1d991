# the 0-d axis allowance is for a scalar axis only; a tuple (0,) is out of range as in NumPy -> error: axis 0 is out of bounds for array of dimension 0
import mars.tensor as mt
z = mt.tensor(3.5)
print(z.sum(axis=(0,)))
