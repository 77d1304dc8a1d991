# matrix_power with a float exponent -> error: TypeError: exponent must be an integer
import mars.tensor as mt
a = mt.eye(2)
print(mt.linalg.matrix_power(a, 1.5))
