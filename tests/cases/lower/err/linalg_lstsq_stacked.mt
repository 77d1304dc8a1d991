# lstsq of a stack of matrices (NumPy's lstsq takes one matrix) -> error: LinAlgError: 3-dimensional array given. Array must be two-dimensional
import mars.tensor as mt
a = mt.ones((2, 3, 3))
x, res, rank, s = mt.linalg.lstsq(a, mt.ones((2, 3)))
