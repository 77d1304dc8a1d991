# mean, var and std do not share the ufunc reductions' 0-d allowance -> error: axis 0 is out of bounds for array of dimension 0
import mars.tensor as mt
z = mt.tensor(3.5)
print(z.mean(axis=0))
