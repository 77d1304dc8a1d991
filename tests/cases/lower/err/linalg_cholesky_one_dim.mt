# cholesky of a vector -> error: LinAlgError: 1-dimensional array given. Array must be at least two-dimensional
import mars.tensor as mt
v = mt.ones(4)
print(mt.linalg.cholesky(v))
