# inv of a stack of matrices, one of them exactly singular, fails at run time naming the line, as NumPy raises for the whole stack -> error: Singular matrix
import mars.tensor as mt
a = mt.stack([mt.eye(2), mt.tensor([[1.0, 2.0], [2.0, 4.0]]), 3 * mt.eye(2)])
print(mt.linalg.inv(a.rechunk(2)))
