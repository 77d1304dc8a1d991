# choose's out= is not supported yet -> error: not supported yet: the `out` argument of `choose()`
import mars.tensor as mt
o = mt.zeros(2, dtype=mt.int64)
mt.choose([0, 1], [[1, 2], [3, 4]], out=o)
