# solve_triangular with a zero on the diagonal fails at run time, naming the line -> error: singular matrix: resolution failed at diagonal 1
import mars.tensor as mt
a = mt.tensor([[1.0, 2.0], [0.0, 0.0]])
print(mt.linalg.solve_triangular(a, mt.ones(2)))
