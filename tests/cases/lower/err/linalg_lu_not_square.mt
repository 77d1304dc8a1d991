# lu of a non-square matrix -> error: LinAlgError: Last 2 dimensions of the array must be square (Mars factors (M, M) matrices only)
import mars.tensor as mt
a = mt.ones((3, 2))
p, l, u = mt.linalg.lu(a)
