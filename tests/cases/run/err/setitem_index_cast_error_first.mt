# x[idx] OP= v is checked (NumPy's same-kind rule) before the stage that reads the indices runs, so nothing prints -> error: Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'
import mars.tensor as mt
x = mt.arange(10, chunk_size=3)
print(x.sum())
x[[1, 2]] += 0.5
print(x)
