# a dtype attribute of the library that marsc does not have -> error: unknown dtype `mt.complex128`
import mars.tensor as mt
print(mt.zeros(2, dtype=mt.complex128))
