# bin counts of float16 data (NumPy bins it in float16 arithmetic) -> error: not supported yet; hint: astype float32
import mars.tensor as mt
h = mt.arange(10, dtype=mt.float16) / 3
print(mt.histogram(h, bins=4))
