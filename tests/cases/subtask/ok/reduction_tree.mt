# a reduction tree: each group of map chunks is numbered just before its combine (depth-first), so a branch finishes before the next starts
import mars.tensor as mt
x = mt.ones(12, chunks=1)
print(x.sum())
