# a `broadcast_to` result is a read-only view, as in NumPy
import mars.tensor as mt
x = mt.arange(3.0)
b = mt.broadcast_to(x, (2, 3))
b += 1
t = b.T
t *= 2
print(b)
