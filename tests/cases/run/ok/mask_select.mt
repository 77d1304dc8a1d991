# boolean-mask selection (x[mask], mixed with basic items, on several chunkings), nonzero/where/flatnonzero/argwhere/compress/extract
import mars.tensor as mt
x = mt.arange(20, chunk_size=6)
y = x[x % 3 == 1]
print(y, y.shape, y.sum())
a = mt.arange(24, chunk_size=5).reshape(4, 6).rechunk((3, 4))
print(a[a > 10])
print(a[:, a[0] % 2 == 0])
print(a[1:, mt.array([True, False, True, True, False, False])])
print(a[a > 100], a[a > 100].shape)
b = mt.arange(24).reshape(2, 3, 4)
m = mt.array([True, False, True, True])
print(b[1, :, m].shape, b[:, 1, m].shape, b[1, :, m])
z = a[a > 3]
z += 1
print(a.sum(), z.sum())
x = mt.arange(24, chunk_size=5).reshape(4, 6).rechunk((3, 4))
r, c = mt.nonzero(x % 5 == 0)
print(r, c)
w = mt.where(x > 17)
print(len(w), w[0], w[1])
print((x > 20).nonzero()[1])
print(mt.flatnonzero(x % 7 == 3))
print(mt.argwhere(x % 4 == 1))
print(mt.compress([True, False, True], x, axis=0))
print(mt.compress(mt.array([False, True]), x, axis=1))
print(mt.compress(x[0] > 2, x))
print(x.compress([1, 0, 1, 1], axis=0))
print(mt.extract(x % 3 == 0, x))
print(mt.nonzero(mt.array([0.0, 1.5, float("nan"), 0.0]))[0])
e = mt.nonzero(mt.zeros(10, chunk_size=3))
print(e[0], e[0].shape)
y = mt.arange(10, chunk_size=3)
print(y[y > 3][::2], (y[y > 3] * 2).sum(), mt.argwhere(y > 7))
big = mt.arange(3000, chunk_size=7) % 11
sel = big[big > 8]
print(sel.shape, sel.sum(), sel[:5], mt.flatnonzero(big == 10)[-3:])
f = mt.linspace(-1, 1, 101, chunk_size=10)
g = f[(f > 0.5) | (f < -0.9)]
print(g, g.mean())
m = mt.ones((5, 4), dtype=bool, chunk_size=2)
print(mt.arange(20).reshape(5, 4)[m].sum(), mt.arange(20).reshape(5, 4)[~m].shape)
# 0-d integer tensors as indices and slice bounds are staged values
v = mt.arange(5, chunk_size=2) * 2
print(v[v.argmax()], v[v.argmin() + 1:])
t = mt.arange(12).reshape(3, 4)
print(t[t.sum(axis=1).argmax(), 1:3])
