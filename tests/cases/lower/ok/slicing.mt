# slices with omitted parts, steps, negative bounds and steps, bounds past the end (clipped), and empty results
import mars.tensor as mt
x = mt.arange(10)
print(x[2:5], x[:3], x[7:], x[::3], x[1::2], x[-3:], x[:-7])
print(x[::-1], x[8:2:-2], x[-1:-4:-1], x[:: -4])
print(x[5:100], x[-100:2], x[100:], x[5:2], x[5:2].shape)
m = mt.arange(20).reshape(4, 5)
print(m[1:3, ::2], m[::-1, -1], m[:, 1:2].shape, m[-2:, :-3])
print(m[3:0:-2, 4:0:-3])
