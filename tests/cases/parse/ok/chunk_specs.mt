# chunks as an int, a tuple with None and -1, explicit splits, and "auto"
import mars.tensor as mt
a = mt.ones((10, 10), chunks=3)
b = mt.ones((10, 10), chunks=(None, -1))
c = mt.ones((10, 10), chunk_size=((2, 8), (5, 5)))
d = mt.ones((10, 10), chunks="auto").rechunk((5, 5))
print(a.nsplits, b.nsplits, c.nsplits, d.nsplits)
