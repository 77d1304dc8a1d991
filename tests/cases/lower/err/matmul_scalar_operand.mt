# matmul with a 0-d operand -> error: matmul: operand 1 is 0-d; use * to multiply by a scalar
import mars.tensor as mt
x = mt.ones((2, 2))
print(x.sum() @ x)
