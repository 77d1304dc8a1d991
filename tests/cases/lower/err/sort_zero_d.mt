import mars.tensor as mt
x = mt.tensor([[1, 2], [3, 4]], chunks=1)
print(mt.sort(x), mt.sort(x[0, 0]))
