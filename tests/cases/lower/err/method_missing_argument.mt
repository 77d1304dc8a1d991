# a method called without its required argument -> error: `astype` is missing its required argument `dtype`
import mars.tensor as mt
x = mt.ones(3)
print(x.astype())
