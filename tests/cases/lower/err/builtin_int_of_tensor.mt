# int() of a 1-d tensor is NumPy's TypeError -> error: only 0-dimensional arrays can be converted to Python scalars
import mars.tensor as mt
print(int(mt.ones(1)))
