# `+=` through a slice keeps NumPy's same-kind rule -> error: Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64')
import mars.tensor as mt
x = mt.arange(4)
x[1:] += 1.5
