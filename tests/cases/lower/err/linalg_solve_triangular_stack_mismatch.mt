# solve_triangular of a stack of 3x3 matrices and right-hand sides of 4 rows: SciPy's message names one matrix's core shapes, pointing at b -> error: shapes of a (3, 3) and b (4, 2) are incompatible
import mars.tensor as mt
a = mt.ones((2, 3, 3))
x = mt.linalg.solve_triangular(a, mt.ones((2, 4, 2)))
