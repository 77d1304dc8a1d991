# more than one ellipsis in an index -> error: an index can only have a single ellipsis ('...')
import mars.tensor as mt
x = mt.ones((2, 3, 4))
print(x[..., 0, ...])
