# workers: 1
# a comparison feeding where, with an int32 to float64 cast on the way
import mars.tensor as mt
a = mt.arange(8, chunks=4).astype('int32')
print(mt.where(a > 3, a * 2.5, -1.0))
