# inv of an integer matrix with a zero row fails at run time -> error: Singular matrix
import mars.tensor as mt
a = mt.tensor([[1, 2], [0, 0]])
print(mt.linalg.inv(a))
