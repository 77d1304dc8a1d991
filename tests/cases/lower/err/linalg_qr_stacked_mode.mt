# qr of a stack of matrices with a mode NumPy does not know -> error: Unrecognized mode 'q'
import mars.tensor as mt
a = mt.ones((2, 3, 3))
q, r = mt.linalg.qr(a, mode='q')
