# rechunk sets new splits; operands with different chunkings are unified for element-wise ops (oracle: skipped, prints nsplits)
import mars.tensor as mt
a = mt.ones((10, 6), chunks=(5, 3))
b = mt.ones((10, 6), chunks=(2, 6))
print(a.rechunk(4).nsplits, a.rechunk((2, -1)).nsplits, a.rechunk(((1, 9), (6,))).nsplits)
c = a + b
print(c.shape, c.sum())
print((a @ b.T).shape, mt.concatenate([a, b]).shape, (a.rechunk(10) - b).sum())
print(mt.where(a > 0, b, a.rechunk(1)).sum(), a.rechunk(chunks=3).rechunk(2).nsplits)
