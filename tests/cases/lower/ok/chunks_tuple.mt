# chunks as a tuple with one entry per axis: an int, -1 or None (the whole axis) (oracle: skipped, prints nsplits)
import mars.tensor as mt
print(mt.ones((10, 7), chunks=(4, 3)).nsplits)
print(mt.ones((10, 7), chunks=(-1, 2)).nsplits)
print(mt.ones((10, 7), chunks=(3, None)).nsplits)
print(mt.ones((2, 3, 4), chunks=(1, -1, None)).nsplits)
print(mt.ones(5, chunks=(2,)).nsplits, mt.ones(5, chunks=None).nsplits)
