# lstsq of a (5, 2) matrix and 4 targets -> error: LinAlgError: Incompatible dimensions
import mars.tensor as mt
a = mt.ones((5, 2))
x, res, rank, s = mt.linalg.lstsq(a, mt.ones(4))
