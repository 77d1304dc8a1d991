# fuse: off
# the seed's example with --no-fuse: every chunk operation is its own subtask
import mars.tensor as mt
a = mt.random.rand(100, chunks=100)
b = mt.random.rand(100, chunks=100)
print((a + b).sum())
