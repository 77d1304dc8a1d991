# ** is right-associative, binds tighter than unary minus, and takes a signed exponent
import mars.tensor as mt
x = mt.arange(1, 5)
a = -2**2
b = 2**-1
c = 2**3**2
d = x**2 + -x**0.5
e = (-x)**2
print(a, b, c, d, e)
