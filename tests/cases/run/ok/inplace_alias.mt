# `x OP= e` updates the object in place: every name bound to it sees the new value,
# and the result keeps the target's dtype (NumPy's same-kind casting).
import mars.tensor as mt

# float64 through every operator, with an alias read before and after
x = mt.arange(1.0, 7.0, chunks=4).reshape(2, 3)
x_prev = x
before = x_prev.sum()
x += mt.ones(3)
print(abs(x - x_prev).max(), before, x_prev.sum())
x -= 0.5
x *= 2
x /= 4
print(x_prev)
x //= 0.5
x %= 5
x **= 2
print(x_prev, x_prev.dtype)
m = mt.array([[1.0, 2.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
x @= m
print(x_prev)

# a chain of aliases: z and y both denote x's object
a = mt.arange(6, chunks=4)
y = a
z = y
y += 10
print(a, z)
z *= 2
print(a, y)

# int64 and int32 keep their dtype
i = mt.arange(5)
j = i
i //= 2
i %= 2
i **= 3
i -= 1
print(j, j.dtype)
k = mt.arange(5, dtype=mt.int32)
k_alias = k
k += mt.arange(5)
k *= 3
print(k_alias, k_alias.dtype)
k @= mt.eye(5, dtype=mt.int32)[:, ::-1]
print(k)

# float32 stays float32, even with a float64 operand
f = mt.ones(4, dtype=mt.float32)
g = f
f *= 2.0
f += mt.arange(4.0)
f /= 3
print(g, g.dtype)

# bool: `+=` is logical or, `*=` logical and
b = mt.array([True, False, False, True])
c = b
b += mt.array([False, False, True, False])
print(c)
b *= mt.array([True, True, False, False])
print(c, c.dtype)

# `.execute()` is the same object; an alias is saved after the update
s = mt.zeros((2, 2))
t = s.execute()
s += 3
mt.save("target/run_case_inplace_alias_t.npy", t)
print(t)

# a Python number rebinds; a NumPy scalar (a reduction's result) is immutable
n = 3
n_alias = n
n += 1
print(n, n_alias)
total = mt.arange(4).sum()
total_alias = total
total += 0.5
print(total, total_alias)

# a new tensor from an expression is a new object
p = mt.ones(3)
q = p + 0
p += 1
print(p, q)
r = p.astype(p.dtype)
p += 1
print(r, p)
