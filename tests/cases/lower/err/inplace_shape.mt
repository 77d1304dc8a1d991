# the result of an in-place update must have the target's shape (NumPy's non-broadcastable output operand)
import mars.tensor as mt
x = mt.ones(3)
x += mt.ones((2, 3))
y = mt.ones(3)
y *= mt.ones((1, 3))
z = mt.ones((2, 3))
z -= mt.ones((3, 2))
print(x, y, z)
