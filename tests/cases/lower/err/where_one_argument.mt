# one-argument where (np.nonzero's indices) has a run-time size and is not in version 1 -> error: not supported yet: `where(condition)` with one argument
import mars.tensor as mt
x = mt.arange(5)
print(mt.where(x > 2))
