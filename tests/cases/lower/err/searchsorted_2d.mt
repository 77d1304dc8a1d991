import mars.tensor as mt
x = mt.ones((3, 4))
print(mt.searchsorted(x, 0.5))
