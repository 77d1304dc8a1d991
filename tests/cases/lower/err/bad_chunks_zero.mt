# a chunk size of zero -> error: invalid chunks: chunk size 0 must be positive
import mars.tensor as mt
print(mt.ones((4, 4), chunks=(2, 0)))
