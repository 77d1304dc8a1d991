# mt.linalg names marsc lacks (here the general eigensolver) are not in the library yet -> error: not supported yet: `mars.tensor.linalg.eig`
import mars.tensor as mt
a = mt.ones((3, 3))
w, v = mt.linalg.eig(a)
