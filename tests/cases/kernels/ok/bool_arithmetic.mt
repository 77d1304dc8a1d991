# workers: 1
# NumPy's bool arithmetic from the one dtype table: + and maximum are `bor`, * and minimum are `band`
import mars.tensor as mt
a = mt.arange(6, chunks=3) > 2
b = mt.arange(6, chunks=3) < 4
print(a + b, mt.maximum(a, b), a * b, mt.minimum(a, b))
