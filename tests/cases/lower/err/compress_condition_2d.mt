# compress takes a 1-D condition -> error: condition must be a 1-d array
import mars.tensor as mt
x = mt.ones((3, 4))
print(mt.compress(x > 0, x, axis=0))
