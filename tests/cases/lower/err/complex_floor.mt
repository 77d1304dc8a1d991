# NumPy has no floor of complex numbers -> error: `floor` is not supported for complex128 tensors
import mars.tensor as mt
z = mt.arange(3) + 1j
print(mt.floor(z))
