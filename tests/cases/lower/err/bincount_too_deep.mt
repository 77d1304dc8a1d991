# bincount takes a 1-D tensor, as NumPy says -> error: object too deep for desired array
import mars.tensor as mt
x = mt.ones((2, 3), dtype=int)
print(mt.bincount(x))
