# diff with a negative order -> error: order must be non-negative but got -1
import mars.tensor as mt
print(mt.diff(mt.arange(5), n=-1))
