# A basic slice is a view, as in NumPy: updating the base in place changes the view,
# and updating the view in place writes into the base.
import mars.tensor as mt

x = mt.arange(10.0, chunks=3)
y = x[2:6]
print(y)
x += 1
print(y)
y *= 10
print(x)
w = y[::-1]
w -= 1
print(x, y)

# views of a 2-D tensor: a row, a column, a block, a transposed block
m = mt.arange(12, chunks=(2,)).reshape(3, 4)
row = m[1]
col = m[:, 2]
block = m[1:, 1:3]
bt = block.T
m *= 2
print(row, col)
print(bt)
row += 100
print(m)
col -= 1
print(m)
bt += mt.array([[1000, 2000], [3000, 4000]])
print(m)
print(block)

# `.T`, `transpose`, `swapaxes`, `expand_dims`, `squeeze` and `reshape` of a
# contiguous tensor are views too
a = mt.ones((2, 3), dtype=mt.int32)
at = a.T
sw = mt.swapaxes(a, 0, 1)
ex = mt.expand_dims(a, 0)
sq = mt.squeeze(ex)
flat = a.reshape(6)
rv = mt.ravel(a)
flat += mt.arange(6, dtype=mt.int32)
print(a)
print(at, sw, ex.shape, sq)
ex *= 2
print(rv)
at @= mt.array([[1, 1], [0, 1]], dtype=mt.int32)
print(a)

# `broadcast_to` is a view that sees its base's updates
v = mt.arange(3.0)
bv = mt.broadcast_to(v, (2, 3))
v += 1
print(bv)

# a view of a 0-d result of `...` is a 0-d array
e = mt.zeros(3)
e0 = e[1, ...]
e0 += 5
print(e)

# copies are not views: an element, `flatten`, `copy`, `astype`, arithmetic
c = mt.arange(4)
c_el = c[1]
c_flat = c.reshape(2, 2).flatten()
c_copy = c.copy()
c_cast = c.astype(mt.float64)
c_sum = c[1:] + 0
c += 7
print(c_el, c_flat, c_copy, c_cast, c_sum, c)

# a tuple keeps the objects it holds
u = mt.zeros(2)
pair = (u, 5)
u += 1
first = pair[0]
u += 1
print(pair[0], first)
