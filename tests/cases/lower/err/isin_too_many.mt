# isin compares with at most 64 test elements -> error: not supported yet: `isin` with 100 test elements
import mars.tensor as mt
x = mt.arange(10)
print(mt.isin(x, mt.arange(100)))
