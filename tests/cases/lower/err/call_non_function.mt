# calling a tensor as if it were a function -> error: a tensor is not callable
import mars.tensor as mt
x = mt.ones(3)
print(x(1))
