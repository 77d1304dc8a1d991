# `not` on a tensor -> error: `not` cannot be used on a tensor; help: use `~` or logical_not
import mars.tensor as mt
x = mt.arange(5)
print(not (x > 2))
