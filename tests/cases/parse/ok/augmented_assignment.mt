# every augmented assignment operator
import mars.tensor as mt
x = mt.ones((3, 3), chunks=2)
x += 1
x -= 0.5
x *= 4
x /= 2
x //= 1
x %= 7
x **= 2
m = mt.eye(3)
m @= x
print(m)
