# a negative length in a shape -> error: negative dimension -2 in shape (-2, 3)
import mars.tensor as mt
print(mt.zeros((-2, 3)))
