# `@=`: the result must have the target's shape, and the right operand at least two dimensions
import mars.tensor as mt
a = mt.ones((2, 3))
a @= mt.ones((3, 4))
b = mt.ones(3)
b @= mt.ones(3)
c = mt.ones((2, 3), dtype=mt.int64)
c @= mt.ones((3, 3))
v = mt.ones(3)
v @= mt.ones((3, 2))
print(a, b, c, v)
