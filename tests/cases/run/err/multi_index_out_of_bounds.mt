# with several index arrays each is checked against its own axis (a linear index could be in bounds when one part is not) -> error: index 5 is out of bounds for axis 1 with size 5
import mars.tensor as mt
x = mt.arange(20, chunk_size=3).reshape(4, 5)
print(x[[0, 1], [1, 2]])
print(x[[0, 1], [5, 0]])
