# digitize needs monotonic bins, as NumPy says -> error: bins must be monotonically increasing or decreasing
import mars.tensor as mt
x = mt.arange(5)
print(mt.digitize(x, [1, 3, 2]))
