# assigning into a read-only broadcast view -> error: assignment destination is read-only
import mars.tensor as mt
x = mt.ones(4)
b = mt.broadcast_to(x, (2, 4))
b[0] = 5
