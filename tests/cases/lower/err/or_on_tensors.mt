# `or` between tensors -> error: `or` cannot be used on tensors; help: use `|`
import mars.tensor as mt
x = mt.arange(5)
print((x < 1) or (x > 3))
