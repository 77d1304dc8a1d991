# the Frobenius order of a vector norm -> error: Invalid norm order 'fro' for vectors
import mars.tensor as mt
v = mt.ones(4)
print(mt.linalg.norm(v, ord="fro"))
