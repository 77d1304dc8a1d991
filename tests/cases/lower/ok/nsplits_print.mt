# nsplits is known at compile time and prints as a tuple of tuples (oracle: skipped, NumPy has no chunks)
import mars.tensor as mt
x = mt.ones((10, 4), chunks=(3, 2))
print(x.shape, x.dtype, x.ndim, x.size, x.nsplits)
print(x.T.nsplits, x[2:9].nsplits, x.sum(axis=0).nsplits, x.sum().nsplits)
print(mt.tensor(1.5).nsplits, mt.zeros((0, 3), chunks=2).nsplits)
