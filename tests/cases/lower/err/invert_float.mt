# ~ on a float tensor -> error: `~` (invert) is not defined for float64; hint: use logical_not or `1 - x`
import mars.tensor as mt
x = mt.ones(3)
print(~x)
