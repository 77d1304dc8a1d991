# einsum subscripts: an output label no input has, too many subscripts, a bad character, a safe-cast refusal (NumPy's messages)
import mars.tensor as mt
a = mt.ones((2, 3))
print(mt.einsum("ij->ix", a))
print(mt.einsum("ijk", a))
print(mt.einsum("i1", a))
print(mt.einsum("ij", mt.arange(6).reshape(2, 3), dtype=mt.float32))
print(mt.einsum("ij,jk", a))
