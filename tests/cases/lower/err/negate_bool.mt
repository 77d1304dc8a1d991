# unary - on a bool tensor -> error: `-` (negative) is not defined for bool; hint: use `~` or logical_not
import mars.tensor as mt
mask = mt.arange(3) > 1
print(-mask)
