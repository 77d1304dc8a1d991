# a value that does not broadcast into the indexed region -> error: could not broadcast input array from shape (2,) into shape (4,)
import mars.tensor as mt
x = mt.ones((3, 4))
x[0] = [1, 2]
