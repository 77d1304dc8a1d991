# a random function outside version 1 -> error: unknown function `random.poisson`
import mars.tensor as mt
print(mt.random.poisson(3.0, size=4))
