# cumulative sums and products along each axis, over chunks that split the scanned axis unevenly
import mars.tensor as mt
x = mt.arange(1, 25, chunks=5).reshape(4, 6)
print(x.cumsum(axis=0), x.cumsum(axis=1), mt.cumsum(x.rechunk((3, 4)), axis=-1))
print(x.cumprod(axis=0), mt.cumprod(mt.arange(1, 11, chunks=3)), mt.cumsum(mt.ones(7, dtype=bool, chunks=2)))
f = mt.linspace(0.1, 1.0, 10, chunks=3)
print(f.cumsum(), f.cumprod(), mt.cumsum(x.astype(mt.int32), axis=1).dtype)
