# enumerate of a tensor outside a for header -> error: not supported yet: `enumerate()` of a tensor outside a `for` header
import mars.tensor as mt
pairs = list(enumerate(mt.ones(3)))
