import mars.tensor as mt
x = mt.ones((3, 4))
print(mt.unique(x, axis=0))
