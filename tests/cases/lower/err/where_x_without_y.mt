# where with x but no y, as NumPy words it -> error: either both or neither of x and y should be given
import mars.tensor as mt
x = mt.arange(5)
print(mt.where(x > 2, x))
