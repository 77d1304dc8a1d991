# a method tensors do not have -> error: unknown method `normalize` of a tensor
import mars.tensor as mt
x = mt.ones(3)
print(x.normalize())
