# a float kth is NumPy's TypeError -> error: Partition index must be integer
import mars.tensor as mt
x = mt.arange(5)
print(mt.partition(x, 2.0))
