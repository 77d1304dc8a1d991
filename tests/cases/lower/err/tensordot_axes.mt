# tensordot's axes must pair axes of equal length -> error: shape-mismatch for sum (NumPy's text); inner and vdot's alignment errors
import mars.tensor as mt
a = mt.ones((2, 3))
print(mt.tensordot(a, a, axes=1))
print(mt.tensordot(a, a, axes=([0, 1], [1])))
print(mt.inner(a, mt.ones(2)))
print(mt.vdot(a, mt.ones(5)))
