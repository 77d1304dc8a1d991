# stack of tensors of different shapes -> error: stack: all inputs must have the same shape, found (3,) and (4,)
import mars.tensor as mt
print(mt.stack([mt.ones(3), mt.ones(4)]))
