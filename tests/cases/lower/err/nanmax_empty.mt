# nanmax over an axis of length 0 has no identity, as in NumPy -> error: zero-size array to reduction operation fmax which has no identity
import mars.tensor as mt
a = mt.zeros((3, 0))
print(mt.nanmax(a, axis=1))
