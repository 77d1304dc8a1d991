# the same keyword argument twice
import mars.tensor as mt
x = mt.ones(3, chunks=1, chunks=2)
