# bincount: counts by value with the length read in a stage (max + 1, or minlength), weights summed as float64, bools and int32 counted, an empty x, every chunking alike
import mars.tensor as mt
x = mt.array([0, 1, 1, 3, 2, 1, 7, 3, 3], chunk_size=4)
print(mt.bincount(x), mt.bincount(x).dtype)
print(mt.bincount(x, minlength=3), mt.bincount(x, minlength=12))
w = mt.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, -4.5], chunk_size=2)
print(mt.bincount(x, weights=w), mt.bincount(x, w).dtype)
print(mt.bincount(x, weights=mt.arange(9, chunk_size=5)))
print(mt.bincount(mt.array([True, False, True, True])))
print(mt.bincount(mt.array([2, 0, 2], dtype=mt.int32), minlength=1))
print(mt.bincount(mt.array([], dtype=mt.int64)), mt.bincount(mt.zeros(0, dtype=int), minlength=4))
print(mt.bincount([1, 2, 2, 5]))
y = mt.arange(1000, chunk_size=77) % 13
counts = mt.bincount(y)
print(counts, counts.sum(), counts.shape)
print(mt.bincount(y.rechunk(1000)) - counts)
