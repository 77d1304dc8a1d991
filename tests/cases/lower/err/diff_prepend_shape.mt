# diff whose prepend does not fit a along the other axes -> error: all the input array dimensions except for the concatenation axis must match exactly (at the prepend argument)
import mars.tensor as mt
a = mt.ones((3, 4), chunks=2)
print(mt.diff(a, prepend=mt.zeros((2, 1)), append=9))
