# NumPy has no `//` of complex numbers -> error: `floor_divide` is not supported for complex64 tensors
import mars.tensor as mt
z = mt.ones(3, dtype=mt.complex64)
print(z // 2)
