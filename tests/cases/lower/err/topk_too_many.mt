import mars.tensor as mt
x = mt.arange(5)
print(mt.topk(x, 6))
