# expand_dims at a position past the new last axis -> error: axis 3 is out of bounds for a tensor of dimension 3
import mars.tensor as mt
print(mt.expand_dims(mt.ones((2, 3)), 3))
