# Python scalars compute at compile time like Python (ints, floats, bools, and/or/not on them) and mix with tensors as weak scalars
import mars.tensor as mt
n = 1_000
print(n + 2, 7 // 2, 7 / 2, 7 % 3, -7 // 2, 2 ** 10, -2 ** 2, 2 ** -1)
print(0x1f, .5, 5., 1e-3, 1.5e3, 10 / 4, 3 * 0.1)
print(True + 1, True and False, not 0, 1 or 2, 0 and 5, not True)
print(1 < 2, 2.5 >= 3, 1 == 1.0, n != 999)
half = n / 2
x = mt.arange(4) * half
print(x, x.dtype, mt.ones(n // 250) * (n - 995))
