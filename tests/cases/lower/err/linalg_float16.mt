# linalg of a float16 matrix -> error: array type float16 is unsupported in linalg (NumPy's TypeError)
import mars.tensor as mt
a = mt.eye(3, dtype=mt.float16)
print(mt.linalg.inv(a))
