# a complex math function marsc has no kernel for yet -> error: not supported yet: `sin` of complex128 tensors
import mars.tensor as mt
print(mt.sin(mt.array([1j, 2 + 0j])))
