# every augmented assignment (+= -= *= /= //= %= **= @=) is `name = name OP value`: dtypes may change, aliases are untouched
import mars.tensor as mt
a = mt.arange(6)
alias = a
a += 1
a -= 2
a *= 3
print(a, a.dtype, alias)
a //= 2
a %= 5
a **= 2
print(a, a.dtype)
a /= 4
print(a, a.dtype)
m = mt.eye(2) + 1
m @= mt.tensor([[1.0, 2.0], [3.0, 4.0]])
print(m)
