# solve_triangular of a 3x2 matrix, SciPy's error -> error: expected square matrix
import mars.tensor as mt
a = mt.ones((3, 2))
x = mt.linalg.solve_triangular(a, mt.ones(3), lower=True)
