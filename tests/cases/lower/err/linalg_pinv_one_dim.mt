# pinv of a vector -> error: LinAlgError: 1-dimensional array given. Array must be at least two-dimensional
import mars.tensor as mt
p = mt.linalg.pinv(mt.ones(3))
