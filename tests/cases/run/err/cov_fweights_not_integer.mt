# cov whose computed fweights are not whole numbers fails at run time, as NumPy's TypeError; only their values show it -> error: fweights must be integer
import mars.tensor as mt
x = mt.arange(12.0, chunks=5).reshape((3, 4))
f = mt.arange(4, chunks=3) / 2
print(mt.cov(x, fweights=f * 2))
print(mt.cov(x, fweights=f))
