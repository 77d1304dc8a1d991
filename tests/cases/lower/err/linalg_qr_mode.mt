# qr with a mode NumPy does not know -> error: Unrecognized mode 'fast'
import mars.tensor as mt
a = mt.ones((5, 2))
q, r = mt.linalg.qr(a, mode="fast")
