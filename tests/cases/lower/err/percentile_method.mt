import mars.tensor as mt
x = mt.arange(5)
print(mt.percentile(x, 50, method="nearest"))
