# a positional argument after a keyword argument
import mars.tensor as mt
x = mt.full(shape=(2, 2), 7)
