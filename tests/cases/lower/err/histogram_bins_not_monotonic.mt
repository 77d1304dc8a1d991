# histogram's explicit edges must not decrease, as NumPy says -> error: `bins` must increase monotonically, when an array
import mars.tensor as mt
a = mt.arange(10)
print(mt.histogram(a, bins=[0, 5, 3, 9]))
