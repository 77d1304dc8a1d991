# one parameter given both positionally and by keyword -> error: `sum` got multiple values for argument `axis`
import mars.tensor as mt
x = mt.ones((2, 3))
print(mt.sum(x, 0, axis=1))
