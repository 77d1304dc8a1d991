# arange with a step of 0 -> error: arange step must not be zero
import mars.tensor as mt
print(mt.arange(0, 10, 0))
