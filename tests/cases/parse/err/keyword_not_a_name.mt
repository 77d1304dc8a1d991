# `=` inside a call after something that is not a name: `==` was meant
import mars.tensor as mt
x = mt.ones(3)
print(x.sum() = 3)
