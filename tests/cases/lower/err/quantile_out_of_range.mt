import mars.tensor as mt
x = mt.arange(10, chunks=3)
print(mt.quantile(x, 1.5))
