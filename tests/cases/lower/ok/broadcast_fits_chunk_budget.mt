# a broadcast result (col + row, outer, where, matmul of tall by wide) whose chunk would exceed the chunk budget is split into near-square chunks
# chunk-bytes: 64KiB
import mars.tensor as mt
x = mt.linspace(0, 1, 300)
d = x[:, None] - x[None, :]
print(x.nsplits, d.nsplits)
print(mt.outer(x, x).nsplits, (mt.ones((300, 1)) @ mt.ones((1, 300))).nsplits)
print(mt.where(d > 0, d, 0.0).nsplits, mt.broadcast_to(x, (300, 300)).nsplits)
small = mt.ones((50, 1)) + mt.ones((1, 50))
chosen = mt.ones((300, 300), chunks=300) * 2
print(small.nsplits, chosen.nsplits)
