# matrix_rank with both tol and rtol -> error: ValueError: `tol` and `rtol` can't be both set.
import mars.tensor as mt
r = mt.linalg.matrix_rank(mt.ones((2, 3, 3)), tol=0.5, rtol=0.1)
