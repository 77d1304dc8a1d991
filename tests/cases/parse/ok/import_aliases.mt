# imports: dotted module paths, with and without `as`
import mars.tensor as mt
import numpy as np
import numpy
import mars.tensor as X

a = X.ones(3)
b = np.zeros(3)
print(mt.add(a, b))
