# workers: 3
# a reduction tree of twelve fused leaves on 3 workers: every leaf reads the shared scalar 2, so no leaf is an initial subtask and the leaves are spread by load, one per worker in turn
import mars.tensor as mt
x = mt.ones(12, chunks=1)
print((x * 2).sum())
