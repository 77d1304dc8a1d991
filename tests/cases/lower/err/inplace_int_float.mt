# `+=` and `/=` keep an int tensor's dtype, so a float result is NumPy's casting error (same-kind rule)
import mars.tensor as mt
a = mt.arange(6)
a += 0.5
a /= 4
k = mt.ones(3, dtype=mt.int32)
k **= 0.5
print(a, k)
