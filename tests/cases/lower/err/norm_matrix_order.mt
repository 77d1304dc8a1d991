# a matrix norm of an order NumPy has no matrix norm for -> error: Invalid norm order for matrices.
import mars.tensor as mt
a = mt.ones((3, 4), chunks=2)
print(mt.linalg.norm(a, 3))
