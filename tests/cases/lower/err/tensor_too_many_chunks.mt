# 2^24 one-element chunks are more than one tensor may have (2^22)
import mars.tensor as mt
print(mt.ones(16777216, chunks=1).sum())
