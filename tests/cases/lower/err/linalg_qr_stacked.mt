# qr of a stack of matrices (ndim > 2; NumPy factors each) -> error: not supported yet: `linalg.qr` of stacked matrices
import mars.tensor as mt
a = mt.ones((2, 3, 3))
q, r = mt.linalg.qr(a)
