# `tolist()` of a big tensor -> error: not supported yet: `tolist()` of a tensor of over 1000 elements
import mars.tensor as mt
x = mt.arange(5000)
print(x.tolist())
