# a kth past the end of the partitioned axis is NumPy's ValueError at the kth argument -> error: kth(=5) out of bounds (5)
import mars.tensor as mt
x = mt.arange(5, chunks=2)
print(mt.argpartition(x, [1, 5]))
