# views marsc cannot write through or follow are errors naming both places, never NumPy-different values
import mars.tensor as mt
x = mt.arange(10.0)
s = x[::2]
s += 1
m = mt.ones((3, 4))
f = m.T.reshape(12)
m += 1
print(f)
g = m.T.ravel()
g += 1
print(x, m)
