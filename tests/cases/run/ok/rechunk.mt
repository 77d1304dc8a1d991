# rechunking and unifying operands with different chunkings; the values never depend on the chunking
import mars.tensor as mt
a = mt.arange(30, chunks=7).reshape(5, 6)
print(a.rechunk(2), a.rechunk((4, 5)) + a.rechunk((1, 6)), a.rechunk(((1, 4), (3, 2, 1))) * a)
b = mt.ones((5, 6), chunks=(2, 4)) + mt.arange(6, chunks=5)
print(b, (b.rechunk(3) - a.rechunk(1)).sum(axis=1), a.T.rechunk(4)[1:, ::2])
