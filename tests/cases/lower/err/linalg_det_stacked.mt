# det of a stack of matrices (ndim > 2) -> error: not supported yet: `linalg.det` of stacked matrices
import mars.tensor as mt
a = mt.ones((2, 3, 3))
print(mt.linalg.det(a))
