# bincount counts integers; float values are NumPy's casting error -> error: Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'
import mars.tensor as mt
x = mt.array([1.0, 2.0, 2.0])
print(mt.bincount(x))
