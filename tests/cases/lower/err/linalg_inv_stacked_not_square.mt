# inv of a stack of 3x4 matrices -> error: LinAlgError: Last 2 dimensions of the array must be square
import mars.tensor as mt
a = mt.ones((2, 3, 4), chunks=2)
print(mt.linalg.inv(a))
