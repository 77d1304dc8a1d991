# more positional arguments than the function takes -> error: `where` takes 3 positional arguments but 4 were given
import mars.tensor as mt
x = mt.ones(3)
print(mt.where(x > 0, x, 0, 1))
