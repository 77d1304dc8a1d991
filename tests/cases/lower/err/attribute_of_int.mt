# attributes of a Python int, with the right article -> error: an int value has no attribute `shape`
import mars.tensor as mt
n = mt.ones((2, 3)).ndim
print(n.shape)
