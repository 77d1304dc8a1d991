# indexing with two arrays at once (NumPy broadcasts them together) is a later feature -> error: not supported yet: indexing with more than one array
import mars.tensor as mt
x = mt.ones((3, 4))
print(x[[0, 1], [2, 3]])
