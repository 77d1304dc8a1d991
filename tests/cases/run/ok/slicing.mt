# basic indexing across chunk borders: steps in both directions, integer indices, new axes, ellipsis, empty results
import mars.tensor as mt
x = mt.arange(20, chunks=3)
print(x[2:17], x[::4], x[19:1:-3], x[::-1], x[-5:], x[7], x[-1], x[5:5], x[10:3:-1])
m = mt.arange(42, chunks=4).reshape(6, 7)
print(m[1:5, 2:6], m[::-2, ::3], m[4], m[:, -1], m[2, 3], m[None, 1:3, ::2].shape, m[..., 1])
print(m[1:4][::-1, 1::2], m.T[2:5, ::-2], m[::2, None, 5], m[5:0:-2, 6:0:-4])
t = mt.arange(60, chunks=(7)).reshape(3, 4, 5)
print(t[1, ..., ::2], t[..., 2], t[:, 1:3, None, -1], t[-1, -1, -1])
