# an attribute tensors do not have -> error: unknown attribute `length` of a tensor
import mars.tensor as mt
x = mt.ones(3)
print(x.length)
