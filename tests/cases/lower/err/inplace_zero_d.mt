# `+=` on a 0-d tensor shared with another name, when marsc cannot tell a NumPy scalar (rebinds) from a 0-d array (updates in place)
import mars.tensor as mt
x = mt.ones(3)
s = x.sum().astype(mt.float32)
t = s
s += 1
print(s, t)
