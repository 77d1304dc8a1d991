# unpacking assignment: flat, nested, into a list target
import mars.tensor as mt
a, b = mt.ones(2), mt.zeros(2)
(c, d), [e] = (1, 2), [3]
