# concatenate, stack, hstack and vstack unify the other axes, then relabel chunks
import mars.tensor as mt
a = mt.ones((2, 6), chunks=(2, 3))
b = mt.ones((3, 6), chunks=(1, 2))
print(mt.concatenate([a, b]))
v = mt.arange(4, chunks=2)
print(mt.stack([v, v]), mt.hstack([v, v]), mt.vstack([v, v]))
