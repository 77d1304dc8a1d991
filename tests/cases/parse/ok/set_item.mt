# assignment through an index: `=` and `OP=` parse as SetItem statements
import mars.tensor as mt
a = mt.zeros((5, 5))
a[0] = 1
a[1:3, ::2] += 2
a[a > 0] *= 3
