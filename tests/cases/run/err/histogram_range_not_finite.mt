# histogram without a range reads the data's extremes in a stage; a NaN makes them NumPy's error -> error: autodetected range of [nan, nan] is not finite
import mars.tensor as mt
a = mt.array([1.0, 2.0, float("nan"), 4.0], chunk_size=2)
h, edges = mt.histogram(a, bins=4)
print(h)
