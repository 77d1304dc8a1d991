# a subscript inside an unpacking target -> error: not supported yet: assignment to an element or slice inside an unpacking
import mars.tensor as mt
a = mt.zeros(5)
a[0], b = 1, 2
