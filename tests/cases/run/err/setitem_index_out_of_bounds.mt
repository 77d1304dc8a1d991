# an index out of bounds in an assignment is found by the stage that reads the indices, NumPy's IndexError at the index, after what ran before it printed -> error: index 12 is out of bounds for axis 0 with size 10
import mars.tensor as mt
x = mt.arange(10, chunk_size=3)
print(x.sum())
x[mt.array([1, 12, 3])] = 0
print(x)
