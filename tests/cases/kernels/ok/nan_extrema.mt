# workers: 1
# maximum keeps a NaN (selects x when x is unordered), fmax drops it (selects x when y is unordered)
import mars.tensor as mt
x = mt.arange(4, chunks=2) / 1.0
y = 3.0 - x
print(mt.maximum(x, y), mt.fmax(x, y))
