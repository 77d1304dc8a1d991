# rechunk: a single pass when it is small, an intermediate chunking when rows become columns
import mars.tensor as mt
x = mt.ones((6, 6), chunks=(4, 3))
print(x.rechunk(2))
rows = mt.ones((16, 16), chunks=(1, 16))
print(rows.rechunk((16, 1)))
