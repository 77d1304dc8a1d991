# every arithmetic operator, mixed so that precedence matters
import mars.tensor as mt
x = mt.arange(12, chunks=4)
y = x + 1 - 2 * 3 / 4
z = x // 3 % 2 + x * x - -x
w = +x - (x - 1) * (x + 1)
print(y, z, w)
