# / of integers gives float64; // keeps integers; 0-d integer division too
import mars.tensor as mt
a = mt.arange(1, 6)
print(a / 2, (a / 2).dtype, a // 2, (a // 2).dtype)
print(a.sum() / a.size, mt.divide(7, 2), mt.tensor(7) // 2)
print(mt.arange(4, dtype=mt.int32) / mt.arange(1, 5, dtype=mt.int32))
