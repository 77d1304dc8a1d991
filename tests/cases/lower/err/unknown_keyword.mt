# a keyword the function does not have (axes for axis) -> error: `sum` has no parameter `axes`
import mars.tensor as mt
x = mt.ones((2, 3))
print(mt.sum(x, axes=0))
