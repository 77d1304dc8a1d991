# choose broadcasts at most 64 arrays, a and 63 choices, as NumPy -> error: Need at least 0 and at most 64 array objects.
import mars.tensor as mt
print(mt.choose(mt.zeros(3, dtype=mt.int32), mt.ones((64, 3))))
