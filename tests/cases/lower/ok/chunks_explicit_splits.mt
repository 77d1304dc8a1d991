# chunks with explicit split sizes per axis, mixed with ints and None (oracle: skipped, prints nsplits)
import mars.tensor as mt
print(mt.ones(10, chunks=((2, 3, 5),)).nsplits)
print(mt.ones((10, 6), chunks=((2, 3, 5), (1, 5))).nsplits)
print(mt.ones((10, 6), chunks=((10,), 4)).nsplits)
print(mt.ones((4, 6), chunks=(None, (3, 3))).nsplits)
print(mt.arange(6, chunks=((1, 1, 4),)).nsplits)
