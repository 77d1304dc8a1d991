# a tensor where a shape is expected (its values are unknown at compile time) -> error: expected a shape, found a tensor
import mars.tensor as mt
n = mt.arange(3)
print(mt.zeros(n))
