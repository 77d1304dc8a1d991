# transpose axes that repeat an axis -> error: axes (0, 0) don't match the tensor: repeated axis 0
import mars.tensor as mt
x = mt.ones((2, 3))
print(mt.transpose(x, (0, 0)))
