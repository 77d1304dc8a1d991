# every augmented assignment (+= -= *= /= //= %= **= @=) updates the tensor in place: its dtype stays, and an alias sees the new value
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
f = a.astype(float)
f /= 4
print(f, f.dtype)
m = mt.eye(2) + 1
m @= mt.tensor([[1.0, 2.0], [3.0, 4.0]])
print(m)
