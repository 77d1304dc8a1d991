# copy and astype check order= as NumPy does -> error: order must be str, not int
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.copy(1))
