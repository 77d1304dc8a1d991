# average with weights of another shape and no axis -> error: Axis must be specified when shapes of a and weights differ.
import mars.tensor as mt
a = mt.ones((3, 4), chunks=2)
print(mt.average(a, weights=mt.ones(4)))
