# average whose weights sum to zero along a slice fails at run time, as NumPy's ZeroDivisionError; the weights are computed, so only their values show it -> error: Weights sum to zero, can't be normalized
import mars.tensor as mt
a = mt.arange(12, chunks=5).reshape((3, 4))
w = mt.arange(4) - 1.0
print(mt.average(a, axis=1, weights=w))
print(mt.average(a, axis=0, weights=w[:3] - w[1]))
