# concatenate of a 1-D and a 2-D tensor -> error: concatenate: all inputs must have the same number of dimensions (1 and 2)
import mars.tensor as mt
print(mt.concatenate([mt.ones(3), mt.ones((1, 3))]))
