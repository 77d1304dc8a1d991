# solve_triangular of a 3x3 matrix and 4 right-hand values, SciPy's error pointing at b -> error: shapes of a (3, 3) and b (4,) are incompatible
import mars.tensor as mt
a = mt.eye(3)
x = mt.linalg.solve_triangular(a, mt.ones(4))
