# workers: 3
# a reduction tree of twelve fused leaves on 3 workers: every leaf reads nothing but the shared scalar 2 (a broadcaster), so each leaf is an initial subtask and the BFS walk gives each worker the four leaves of one combine (before, they were dealt one per worker in turn and every combine fetched two thirds of its inputs)
import mars.tensor as mt
x = mt.ones(12, chunks=1)
print((x * 2).sum())
