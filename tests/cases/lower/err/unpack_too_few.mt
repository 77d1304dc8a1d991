# unpacking a tensor of 2 rows into 3 names -> error: not enough values to unpack (expected 3, got 2)
import mars.tensor as mt
a, b, c = mt.ones((2, 3))
