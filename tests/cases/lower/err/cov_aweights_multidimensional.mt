# cov with 2-d aweights -> error: cannot handle multidimensional aweights
import mars.tensor as mt
x = mt.arange(12.0).reshape((3, 4))
print(mt.cov(x, aweights=mt.ones((2, 4))))
