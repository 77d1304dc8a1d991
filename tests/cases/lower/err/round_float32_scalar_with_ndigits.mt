# round(t, ndigits) of a float32 scalar rounds in float32, which marsc does not hold yet -> error: not supported yet: `round(t, ndigits)` of a float32 scalar
import mars.tensor as mt
print(round(mt.arange(5, dtype=mt.float32).mean(), 1))
