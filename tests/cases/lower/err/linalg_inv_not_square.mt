# inv of a non-square matrix is NumPy's LinAlgError at compile time -> error: LinAlgError: Last 2 dimensions of the array must be square
import mars.tensor as mt
a = mt.ones((3, 4), chunks=2)
print(mt.linalg.inv(a))
