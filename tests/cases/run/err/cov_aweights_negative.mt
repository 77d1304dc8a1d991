# cov whose computed aweights include a negative one fails at run time, as NumPy's ValueError -> error: aweights cannot be negative
import mars.tensor as mt
x = mt.arange(12.0, chunks=5).reshape((3, 4))
w = mt.arange(4, chunks=3) - 1.0
print(mt.cov(x, aweights=w + 1))
print(mt.cov(x, aweights=w))
