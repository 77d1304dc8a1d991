# - between two bool tensors -> error: `-` (subtract) is not defined for bool; hint: use `^` or logical_xor
import mars.tensor as mt
a = mt.arange(3) > 0
b = mt.arange(3) > 1
print(a - b)
