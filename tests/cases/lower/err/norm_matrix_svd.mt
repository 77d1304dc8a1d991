# the spectral matrix norm needs singular values -> error: not supported yet: matrix norms of order 2, -2 and 'nuc' need the SVD
import mars.tensor as mt
a = mt.ones((3, 4), chunks=2)
print(mt.linalg.norm(a, ord=2, axis=(0, 1)))
