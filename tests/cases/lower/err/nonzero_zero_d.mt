# nonzero of a 0-d tensor is NumPy 2's error -> error: Calling nonzero on 0d arrays is not allowed
import mars.tensor as mt
x = mt.ones(3).sum()
print(mt.nonzero(x))
