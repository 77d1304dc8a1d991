# a boolean index must match the axes it indexes, as NumPy checks -> error: boolean index did not match indexed array along axis 1
import mars.tensor as mt
x = mt.ones((3, 4))
print(x[:, mt.ones(3, dtype=bool)])
