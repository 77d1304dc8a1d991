# a NumPy function marsc does not have yet -> error: `polyfit` is not supported yet
import mars.tensor as mt
x = mt.arange(5)
print(mt.polyfit(x, x, 1))
