# workers: 2
# the seed's example over eight chunks on 2 workers: the fused chunk groups are the initial subtasks, split four and four by the breadth-first assignment; each combine runs where its inputs are
import mars.tensor as mt
a = mt.random.rand(800, chunks=100)
b = mt.random.rand(800, chunks=100)
print((a + b).sum())
