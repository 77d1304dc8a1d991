# choose's indices must cast safely to int64; float ones are NumPy's TypeError at `a` -> error: Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'
import mars.tensor as mt
a = mt.tensor([0.0, 1.0])
print(mt.choose(a, [[1, 2], [3, 4]]))
