# a fill value that cannot broadcast to the shape, with NumPy's message -> error: could not broadcast input array from shape (2,) into shape (2,3)
import mars.tensor as mt
print(mt.full((2, 3), [1, 2]))
