# scans carry chunk totals along the axis: O(k) chunks per line of k chunks
import mars.tensor as mt
x = mt.ones((6, 4), chunks=(2, 2))
print(x.cumsum(axis=0))
print(mt.cumprod(mt.arange(1, 9, chunks=3)))
