# an infinite arange is too big, with NumPy's message -> error: Maximum allowed size exceeded
import mars.tensor as mt
print(mt.arange(0, float("inf")))
