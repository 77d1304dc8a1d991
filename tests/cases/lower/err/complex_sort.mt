# sorting complex values (NumPy sorts them lexicographically) -> error: not supported yet: sorting of complex128 tensors
import mars.tensor as mt
print(mt.sort(mt.array([1 + 2j, 3j, -1 + 0j])))
