# 2^27 one-element chunks are more than one tensor may have (2^25)
import mars.tensor as mt
print(mt.ones(134217728, chunks=1).sum())
