# unpacking assignment `a, b = ...` is an error
import mars.tensor as mt
a, b = mt.ones(2), mt.zeros(2)
