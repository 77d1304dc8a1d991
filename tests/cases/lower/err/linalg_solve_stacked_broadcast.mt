# solve of a stack of 2 matrices and a stack of 3 right-hand sides, NumPy's gufunc broadcasting error -> error: operands could not be broadcast together with remapped shapes
import mars.tensor as mt
a = mt.ones((2, 3, 3))
b = mt.ones((3, 3, 2))
x = mt.linalg.solve(a, b)
