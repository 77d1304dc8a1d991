# four independent errors in one file are all reported
import mars.tensor as mt
a = mt.ones(3) +
b = 1 << a
c = mt.zeros(3)
c.shape = 5
d = mt.ones((2 2))
print(a, b, c, d)
