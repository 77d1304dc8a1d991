# the spectral matrix norm of a stack of matrices (3-d) -> error: not supported yet: matrix norms of order 2, -2 and 'nuc' of stacked matrices
import mars.tensor as mt
a = mt.ones((3, 4, 2), chunks=2)
print(mt.linalg.norm(a, ord=2, axis=(0, 1)))
