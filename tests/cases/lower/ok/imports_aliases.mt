# the library is reachable as mt., np., any import alias, and unprefixed
import mars.tensor as mt
import numpy as np
import mars.tensor as T
a = mt.ones(3)
b = np.zeros(3)
c = T.full(3, 2.0)
d = arange(3)
print(a + b + c + d)
print(T.sum(a), np.mean(d), sum(c), mt.max(d))
