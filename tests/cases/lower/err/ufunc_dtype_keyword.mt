# ufunc keywords NumPy has (dtype=, where=, casting=...) are "not supported yet", not unknown -> error: not supported yet: the `dtype` argument of `add()`
import mars.tensor as mt
x = mt.arange(5)
print(mt.add(x, 1, dtype=mt.float32))
