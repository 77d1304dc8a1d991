# assigning to an attribute is an error
import mars.tensor as mt
a = mt.zeros(5)
a.shape = (5, 1)
