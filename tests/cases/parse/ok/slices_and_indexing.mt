# integer, negative, slice, step, None and ... indices, several per subscript
import mars.tensor as mt
a = mt.arange(60).reshape(3, 4, 5)
print(a[0], a[-1], a[1:], a[:2], a[::2], a[::-1])
print(a[0, 1, 2], a[1:3, ::2, -1])
print(a[None], a[:, None, :], a[..., 0], a[0, ...], a[..., None])
print(a[:], a[::], a[1:2:1, :, 3:])
