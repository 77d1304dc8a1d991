# the smallest singular value (ord=-2) of a stack of empty matrices, NumPy's error for a minimum of nothing -> error: zero-size array to reduction operation minimum which has no identity
import mars.tensor as mt
a = mt.ones((3, 0, 2), chunks=2)
print(mt.linalg.norm(a, ord=-2, axis=(0, 1)))
