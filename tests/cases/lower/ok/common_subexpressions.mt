# the same expression used by several prints is computed once; outputs still come in program order
import mars.tensor as mt
x = mt.linspace(0, 1, 1001, chunks=100)
y = mt.sin(x) * mt.sin(x)
print(y.sum())
print(y.sum(), mt.sin(x).max())
z = y + mt.cos(x) * mt.cos(x)
print(mt.abs(z - 1).max() < 1e-15, z.shape)
