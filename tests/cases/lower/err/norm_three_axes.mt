# a norm over three axes -> error: Improper number of dimensions to norm.
import mars.tensor as mt
b = mt.ones((2, 3, 4))
print(mt.linalg.norm(b, ord=1))
