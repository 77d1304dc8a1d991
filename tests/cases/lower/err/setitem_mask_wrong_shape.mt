# a boolean mask of the wrong length -> error: boolean index did not match indexed array along axis 0
import mars.tensor as mt
x = mt.ones((3, 4))
x[mt.ones(4) > 0] = 0
