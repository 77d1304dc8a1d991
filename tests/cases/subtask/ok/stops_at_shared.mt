# a producer read by two groups stays its own subtask and is published once: s is read by the sum's and the max's per-chunk groups, while s + 1 and sqrt(s) fuse into them
import mars.tensor as mt
s = mt.ones(4, chunks=2) * 3
print((s + 1).sum(), mt.sqrt(s).max())
