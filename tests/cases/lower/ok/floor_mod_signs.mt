# floor division and modulo follow Python's signs (result has the sign of the divisor) for ints and floats
import mars.tensor as mt
n = mt.tensor([7, -7, 7, -7])
d = mt.tensor([2, 2, -2, -2])
print(n // d, n % d)
x = mt.tensor([7.5, -7.5, 7.5, -7.5])
y = mt.tensor([2.0, 2.0, -2.0, -2.0])
print(x // y, x % y, mt.mod(-1, 3), mt.floor_divide(-1, 3))
