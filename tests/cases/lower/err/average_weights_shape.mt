# average with 1-D weights whose length is not the axis's -> error: Shape of weights must be consistent with shape of a along specified axis.
import mars.tensor as mt
a = mt.ones((3, 4), chunks=2)
print(mt.average(a, axis=0, weights=[1.0, 2.0, 3.0, 4.0]))
