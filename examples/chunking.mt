# A tour of chunking: the same values, split into chunks in different ways. Every
# creation function takes chunks= (or chunk_size=); x.rechunk() changes the split;
# operands with different splits are unified automatically. Printing .nsplits shows
# the chunk sizes along each axis; the values never depend on them.
import mars.tensor as mt

a = mt.ones((10, 7), chunks=3)
print("chunks=3:", a.nsplits)
b = mt.ones((10, 7), chunks=(5, -1))
print("chunks=(5, -1):", b.nsplits)
c = mt.ones((10, 7), chunk_size=((2, 3, 5), None))
print("chunk_size=((2, 3, 5), None):", c.nsplits)
d = mt.ones((10, 7), chunks="auto")
print("chunks='auto' (small enough for one chunk):", d.nsplits)

total = a + b + c + d
print("a + b + c + d:", total.shape, total.dtype, "sum", total.sum())
print("rechunked to (4, 4):", total.rechunk((4, 4)).nsplits)

big = mt.arange(4_000_000, chunks=1_000_000).reshape(2_000, 2_000)
print("a", big.shape, big.dtype, "tensor, sum", big.sum())
square = big.rechunk(500)
print("rechunked to 500:", square.nsplits)
print("sums agree:", big.sum() == square.sum())
print("column sums agree:", mt.all(big.sum(axis=0) == square.sum(axis=0)))
print("the transpose swaps the splits:", square[:1000, :750].T.nsplits)
