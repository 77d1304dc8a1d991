# solve_triangular of a stack of 2 matrices and a stack of 4 right-hand sides: the leading axes do not broadcast (SciPy's batching message) -> error: shape mismatch: objects cannot be broadcast to a single shape
import mars.tensor as mt
a = mt.ones((2, 3, 3))
x = mt.linalg.solve_triangular(a, mt.ones((4, 3, 1)))
