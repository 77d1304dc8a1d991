# a function the library does not have -> error: unknown function `mt.frobnicate`
import mars.tensor as mt
x = mt.ones(3)
print(mt.frobnicate(x))
