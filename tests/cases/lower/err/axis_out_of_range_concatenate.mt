# concatenate along an axis the inputs do not have -> error: axis 1 is out of bounds for a tensor of dimension 1
import mars.tensor as mt
print(mt.concatenate([mt.ones(2), mt.ones(3)], axis=1))
