# cholesky of a symmetric indefinite matrix fails at run time as NumPy's LinAlgError -> error: Matrix is not positive definite
import mars.tensor as mt
a = mt.tensor([[1.0, 2.0], [2.0, 1.0]])
l = mt.linalg.cholesky(a)
print(l)
