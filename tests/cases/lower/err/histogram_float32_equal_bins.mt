# equal-width bins of float32 data (NumPy computes them in float32) are not followed yet -> error: not supported yet: equal-width bins for float32 values
import mars.tensor as mt
s = mt.ones(3, dtype=mt.float32)
print(mt.histogram(s, bins=3))
