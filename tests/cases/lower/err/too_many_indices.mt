# more indices than axes -> error: too many indices: the tensor is 2-dimensional, but 3 were indexed
import mars.tensor as mt
x = mt.ones((2, 3))
print(x[0, 1, 0])
