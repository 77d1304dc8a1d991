# a while loop whose condition is a tensor's value -> error: not supported yet: `while` on a tensor's value
import mars.tensor as mt
err = mt.ones(()) * 1.0
while err > 1e-8:
    err = err / 2
