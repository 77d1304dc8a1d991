# broadcast_to a shape the input cannot stretch to -> error: cannot broadcast shape (3,) to (4, 2)
import mars.tensor as mt
print(mt.broadcast_to(mt.ones(3), (4, 2)))
