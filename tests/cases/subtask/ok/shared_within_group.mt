# a producer whose consumers are all in one group joins it: s is read by both b and c, which fuse into b * c, so s is computed there and never published
import mars.tensor as mt
s = mt.ones(4, chunks=2) * 3
b = s + 1
c = mt.sqrt(s)
print(b * c)
