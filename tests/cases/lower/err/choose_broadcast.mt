# the choices and then a broadcast together as NumPy's multi-iterator does, with its error text naming the arrays that disagree -> error: shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (2,) and arg 2 with shape (3,).
import mars.tensor as mt
a = mt.zeros(3, dtype=mt.int64)
print(a.choose([mt.ones(2), [5, 6]]))
