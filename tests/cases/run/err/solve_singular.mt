# solving with an exactly singular matrix (a zero pivot) fails at run time as NumPy's LinAlgError, after what precedes it is printed, naming the solve -> error: Singular matrix
import mars.tensor as mt
a = mt.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], chunks=2)
print(a.sum())
x = mt.linalg.solve(a, mt.ones(3))
print(x + 1)
