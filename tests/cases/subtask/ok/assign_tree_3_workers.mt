# workers: 3
# a reduction tree of twelve fused leaves on 3 workers: four leaves each, neighbours together, so each first-level combine reads one worker's leaves
import mars.tensor as mt
x = mt.ones(12, chunks=1)
print((x * 2).sum())
