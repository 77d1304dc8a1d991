# a negative element of bincount's x is found by the stage that reads its extremes, NumPy's ValueError at the call, after what ran before it printed -> error: 'list' argument must have no negative elements
import mars.tensor as mt
x = mt.arange(10, chunk_size=3) - 2
print(x.sum())
print(mt.bincount(x))
