# a string where a shape is expected -> error: expected a shape (an int or a tuple of ints), found a string
import mars.tensor as mt
print(mt.ones("3"))
