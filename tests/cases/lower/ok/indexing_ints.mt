# integer indices (negative too) drop axes; an index on a 1-D tensor gives a 0-d tensor
import mars.tensor as mt
m = mt.arange(24).reshape(2, 3, 4)
print(m[0].shape, m[-1, 2], m[1, -1, -1], m[0, 1, 2], m[1][2][3])
print(m[1, :, 0], m[:, 0, :].shape, m[-2, 1:, -1])
v = mt.linspace(0, 1, 5)
print(v[0], v[-1], v[2].shape, v[-5] + v[4])
