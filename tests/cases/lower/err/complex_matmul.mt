# a matrix product of complex tensors -> error: not supported yet: matrix products of complex128 tensors
import mars.tensor as mt
a = mt.ones((2, 2), dtype=complex)
print(a @ a)
