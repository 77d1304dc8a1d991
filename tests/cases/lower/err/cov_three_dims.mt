# cov of a 3-d tensor -> error: m has more than 2 dimensions
import mars.tensor as mt
print(mt.cov(mt.ones((2, 3, 4))))
