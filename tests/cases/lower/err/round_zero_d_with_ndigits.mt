# round(t, ndigits) of a 0-d tensor rounds as np.round does -> error: not supported yet: `round(t, ndigits)` of a 0-d tensor
import mars.tensor as mt
print(round(mt.arange(5).mean(), 1))
