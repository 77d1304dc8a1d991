# diag of a 3-D tensor -> error: Input must be 1- or 2-d.
import mars.tensor as mt
print(mt.diag(mt.ones((2, 2, 2))))
