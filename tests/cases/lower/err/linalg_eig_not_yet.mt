# mt.linalg.eig: NumPy returns complex eigenvalues unless all imaginary parts are zero (a dtype depending on the values) and marsc has no complex dtype yet -> error: not supported yet: `mars.tensor.linalg.eig` returns complex eigenvalues
import mars.tensor as mt
a = mt.ones((3, 3))
w, v = mt.linalg.eig(a)
