# diagonal over one axis twice -> error: axis1 and axis2 cannot be the same
import mars.tensor as mt
print(mt.diagonal(mt.ones((3, 3)), axis1=1, axis2=-1))
