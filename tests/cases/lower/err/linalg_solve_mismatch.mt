# solve with a right-hand side of the wrong length, NumPy's gufunc error pointing at b -> error: solve: Input operand 1 has a mismatch in its core dimension 0
import mars.tensor as mt
a = mt.eye(3)
b = mt.ones((4, 2))
x = mt.linalg.solve(a, b)
