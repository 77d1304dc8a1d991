# joining axes whose total length overflows is NumPy's "array is too big", not a wrapped length -> error: array is too big
import mars.tensor as mt
b = mt.zeros((2**62, 0), dtype=bool)
print(mt.concatenate([b, b, b, b, b]).shape)
